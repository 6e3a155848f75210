/**
 * `#/webhooks/new`: create a webhook (POST /webhook, 1 credit). Once created, the address moves to the webhook's own
 * page (`#/webhooks/<id>`), which shows the answer, with its mailbox address and signing secret, once, without reading
 * the webhook again.
 */
import { useState } from 'preact/hooks';
import type { Answer } from '../../api.js';
import { call } from '../../api.js';
import { Charged, CopyButton, ErrorNote, PageTitle, formatInstant, viewerZone } from '../../components/ui.js';
import { href, navigate } from '../../router.js';
import { createBody, emptyDraft, type Draft } from './form-state.js';
import { usePaidCall } from '../../components/use-paid-call.js';
import { WebhookForm } from './webhook-form.js';
import { WEBHOOK_CALL_COST, type WebhookView } from './types.js';

/** The create answer, handed to the webhook's page the address moves to (its secret is in no other answer). */
const created = new Map<string, Answer<WebhookView>>();

/** The answer of a webhook created just now, once. */
export function takeCreated(webhookId: string): Answer<WebhookView> | undefined {
  const answer = created.get(webhookId);
  created.delete(webhookId);
  return answer;
}

export function NewWebhook() {
  const save = usePaidCall<WebhookView>({ clearWhileBusy: true, cost: WEBHOOK_CALL_COST });
  const [invalid, setInvalid] = useState<string | undefined>(undefined);
  const submit = async (draft: Draft) => {
    const body = createBody(draft);
    setInvalid(body.ok ? undefined : body.error);
    if (!body.ok) return;
    let answer: Answer<WebhookView> | undefined;
    const view = await save.run(
      async () => (answer = await call<WebhookView>('POST', '/webhook', { json: body.value })),
    );
    if (view === undefined || answer === undefined) return;
    created.set(view.webhookId, answer);
    navigate('webhooks', view.webhookId);
  };
  return (
    <>
      <PageTitle title="New webhook">New webhook</PageTitle>
      <p>
        <a href={href('webhooks')}>← All webhooks</a>
      </p>
      <WebhookForm
        initial={emptyDraft(viewerZone())}
        editing={false}
        busy={save.busy}
        submitLabel="Create webhook"
        context={{}}
        onSave={(draft) => void submit(draft)}
      >
        <ErrorNote error={invalid ?? save.error} />
        <Charged cost={save.cost} balance={save.balance} />
      </WebhookForm>
    </>
  );
}

/** Above a webhook's page right after it was created: what only the create answer says. */
export function Created({
  view,
  cost,
  balance,
}: {
  view: WebhookView;
  cost: number | undefined;
  balance: number | undefined;
}) {
  return (
    <div class="panel notice" role="status" data-testid="webhook-created">
      <p>
        <strong>Created.</strong>{' '}
        {view.email === undefined ? (
          <>
            Scheduled: next run{' '}
            {view.schedule?.nextRunAt === undefined ? (
              'not planned'
            ) : (
              <time dateTime={view.schedule.nextRunAt}>{formatInstant(view.schedule.nextRunAt)}</time>
            )}
            .
          </>
        ) : (
          <>Mail sent to this address is delivered to {view.webhook}:</>
        )}
      </p>
      {view.email === undefined ? null : <CopyButton text={view.email} label="Copy address" />}
      {view.signingSecret === undefined ? null : (
        <>
          <p>
            Signing secret (Standard Webhooks, <code>webhook-signature</code>): shown only now. Keep it to verify
            deliveries.
          </p>
          <CopyButton text={view.signingSecret} label="Copy signing secret" />
        </>
      )}
      <Charged cost={cost} balance={balance} />
    </div>
  );
}
