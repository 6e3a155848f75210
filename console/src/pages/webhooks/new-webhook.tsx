/** `#/webhooks/new`: create a webhook (POST /webhook, 1 credit); then its mailbox address and signing secret, shown once. */
import { useState } from 'preact/hooks';
import { call } from '../../api.js';
import { Charged, CopyButton, ErrorNote, PageTitle } from '../../components/ui.js';
import { href } from '../../router.js';
import { createBody, emptyDraft, type Draft } from './form-state.js';
import { usePaidCall } from '../../components/use-paid-call.js';
import { WebhookForm } from './webhook-form.js';
import type { WebhookView } from './types.js';

export const viewerZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

export function NewWebhook() {
  const save = usePaidCall<WebhookView>({ clearWhileBusy: true });
  const [invalid, setInvalid] = useState<string | undefined>(undefined);
  const created = save.result;
  const submit = (draft: Draft) => {
    const body = createBody(draft);
    setInvalid(body.ok ? undefined : body.error);
    if (body.ok) void save.run(() => call<WebhookView>('POST', '/webhook', { json: body.value }));
  };
  if (created !== undefined) return <Created view={created} cost={save.cost} balance={save.balance} />;
  return (
    <>
      <PageTitle title="New webhook">New webhook</PageTitle>
      <p>
        <a href={href('webhooks')}>← All webhooks</a>
      </p>
      <WebhookForm initial={emptyDraft(viewerZone())} editing={false} busy={save.busy} submitLabel="Create webhook" context={{}} onSave={submit}>
        <ErrorNote error={invalid ?? save.error} />
        <Charged cost={save.cost} balance={save.balance} />
      </WebhookForm>
    </>
  );
}

function Created({ view, cost, balance }: { view: WebhookView; cost: number | undefined; balance: number | undefined }) {
  return (
    <>
      <PageTitle title={`Webhook ${view.webhookId} created`}>Webhook {view.webhookId} created</PageTitle>
      <div class="panel" role="status">
        {view.email === undefined ? (
          <p>
            Scheduled: next run{' '}
            {view.schedule?.nextRunAt === undefined ? (
              'not planned'
            ) : (
              <time dateTime={view.schedule.nextRunAt}>{new Date(view.schedule.nextRunAt).toLocaleString()}</time>
            )}
            .
          </p>
        ) : (
          <>
            <p>Mail sent to this address is delivered to {view.webhook}:</p>
            <CopyButton text={view.email} label="Copy address" />
          </>
        )}
        {view.signingSecret === undefined ? null : (
          <>
            <p>
              Signing secret (Standard Webhooks, <code>webhook-signature</code>): shown only now. Keep it to verify deliveries.
            </p>
            <CopyButton text={view.signingSecret} label="Copy signing secret" />
          </>
        )}
        <Charged cost={cost} balance={balance} />
      </div>
      <div class="actions">
        <a class="button primary" href={href('webhooks', view.webhookId)}>
          Open {view.webhookId}
        </a>
        <a class="button" href={href('webhooks')}>
          All webhooks
        </a>
      </div>
    </>
  );
}
