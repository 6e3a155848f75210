/**
 * `#/webhooks/<id>`: one webhook (GET, 1 credit): its address, a test delivery, secret rotation, deletion, and the
 * edit form, saved as a PATCH of what changed.
 */
import { useEffect, useState } from 'preact/hooks';
import { call } from '../../api.js';
import type { Answer } from '../../api.js';
import { Charged, CopyButton, CostHint, ErrorNote, Loading, PageTitle, viewerZone } from '../../components/ui.js';
import { href } from '../../router.js';
import { useLoad } from '../../use-load.js';
import { ConfirmButton } from '../../components/confirm-button.js';
import { draftOf, patchBody, type Draft } from './form-state.js';
import { WEBHOOK_CALL_COST, type TestResult, type WebhookView } from './types.js';
import { usePaidCall } from '../../components/use-paid-call.js';
import { WebhookForm } from './webhook-form.js';
import { Created, takeCreated } from './new-webhook.js';
import { LastRun, NextRun, WhatItSends, modeOf } from './webhook-status.js';

const pathOf = (webhookId: string): string => `/webhook/${encodeURIComponent(webhookId)}`;

export function WebhookDetail({ webhookId }: { webhookId: string }) {
  // Just created here: the create answer is the webhook as stored, so it is not read again (nor charged).
  const [fresh] = useState(() => takeCreated(webhookId));
  const loaded = useLoad<Answer<WebhookView>>(
    () => (fresh === undefined ? call<WebhookView>('GET', pathOf(webhookId)) : Promise.resolve(fresh)),
    [webhookId],
  );
  const [view, setView] = useState<WebhookView | undefined>(undefined);
  useEffect(() => setView(loaded.data?.data), [loaded.data]);
  return (
    <>
      <PageTitle title={`Webhook ${webhookId}`}>Webhook {webhookId}</PageTitle>
      <p>
        <a href={href('webhooks')}>← All webhooks</a>
      </p>
      <ErrorNote error={loaded.error} />
      <Loading when={loaded.loading && view === undefined} />
      {fresh === undefined ? null : <Created view={fresh.data} cost={fresh.cost} balance={fresh.balance} />}
      {loaded.data === undefined || fresh !== undefined ? null : (
        <Charged cost={loaded.data.cost} balance={loaded.data.balance} />
      )}
      {view === undefined ? null : <Loaded view={view} onChange={setView} />}
    </>
  );
}

function Loaded({ view, onChange }: { view: WebhookView; onChange: (view: WebhookView) => void }) {
  // Bumped after a test delivery, so the summary's last delivery shows it.
  const [tested, setTested] = useState(0);
  // Once deleted, no paid action is offered: each would be a charged 404.
  const [deleted, setDeleted] = useState(false);
  return (
    <>
      <Summary view={view} tested={tested} />
      <section class="panel" aria-labelledby="actions-heading">
        <h2 id="actions-heading">Actions</h2>
        {deleted ? null : <SendTest view={view} onSent={() => setTested((count) => count + 1)} />}
        {deleted ? null : <RotateSecret view={view} onChange={onChange} />}
        <DeleteWebhook view={view} onDeleted={() => setDeleted(true)} />
      </section>
      {deleted ? null : (
        <section aria-labelledby="edit-heading">
          <h2 id="edit-heading">Edit</h2>
          <EditWebhook view={view} onChange={onChange} />
        </section>
      )}
    </>
  );
}

function Summary({ view, tested }: { view: WebhookView; tested: number }) {
  return (
    <section class="panel" aria-labelledby="summary-heading">
      <h2 id="summary-heading" class="visually-hidden">
        Summary
      </h2>
      <dl class="facts">
        <dt>Mode</dt>
        <dd>{modeOf(view)}</dd>
        <dt>URL</dt>
        <dd class="url">{view.webhook}</dd>
        {view.email === undefined ? null : (
          <>
            <dt>Mailbox address</dt>
            <dd>
              <CopyButton text={view.email} label="Copy address" />
            </dd>
          </>
        )}
        <dt>{view.schedule === undefined ? 'Format' : 'Schedule'}</dt>
        <dd>
          <WhatItSends view={view} />
        </dd>
        <dt>Last {view.schedule === undefined ? 'delivery' : 'run'}</dt>
        <dd>
          <LastRun view={view} loadedAt={`${tested}`} />
        </dd>
        <dt>Next run</dt>
        <dd>
          <NextRun view={view} />
        </dd>
        <dt>Retries</dt>
        <dd>{view.retry === undefined ? 'none (one attempt)' : `${view.retry.attempts}, ${view.retry.backoff}`}</dd>
        <dt>Headers</dt>
        <dd>
          {Object.keys(view.headers).length === 0 ? (
            <span class="muted">none</span>
          ) : (
            Object.keys(view.headers).join(', ')
          )}
        </dd>
      </dl>
      <p>
        <a href={href('webhooks', view.webhookId, 'deliveries')}>Deliveries and attempts →</a>
      </p>
    </section>
  );
}

function SendTest({ view, onSent }: { view: WebhookView; onSent: () => void }) {
  const test = usePaidCall<TestResult>({ clearWhileBusy: true, cost: WEBHOOK_CALL_COST });
  const result = test.result;
  const send = async () => {
    if ((await test.run(() => call<TestResult>('POST', `${pathOf(view.webhookId)}/test`))) !== undefined) onSent();
  };
  return (
    <div class="action">
      <div class="actions">
        <button type="button" disabled={test.busy} onClick={() => void send()}>
          {test.busy ? 'Sending…' : 'Send a test delivery'}
        </button>
        <CostHint credits={WEBHOOK_CALL_COST} />
      </div>
      <div role="status" aria-live="polite" data-testid="test-result">
        {result === undefined ? null : (
          <p class={result.success ? 'ok' : 'error'}>
            {result.success ? '✓ ' : '✗ '}
            {result.message}. <a href={href('webhooks', view.webhookId, 'deliveries')}>See the attempt</a>
          </p>
        )}
      </div>
      <ErrorNote error={test.error} />
      <Charged cost={test.cost} balance={test.balance} />
    </div>
  );
}

function RotateSecret({ view, onChange }: { view: WebhookView; onChange: (view: WebhookView) => void }) {
  const rotate = usePaidCall<WebhookView>({ clearWhileBusy: true, cost: WEBHOOK_CALL_COST });
  const secret = rotate.result?.signingSecret;
  const run = async () => {
    const answer = await rotate.run(() =>
      call<WebhookView>('PATCH', pathOf(view.webhookId), { json: { rotateSecret: true } }),
    );
    if (answer !== undefined) onChange(answer);
  };
  return (
    <div class="action">
      <div class="actions">
        <ConfirmButton
          label="Rotate signing secret"
          question="Issue a new signing secret? The old one keeps signing beside it for 24 hours."
          confirmLabel="Rotate"
          disabled={rotate.busy}
          onConfirm={() => void run()}
        />
        <CostHint credits={WEBHOOK_CALL_COST} />
      </div>
      {secret === undefined ? null : (
        <div class="notice" role="status">
          <p>New signing secret, shown only now. Deliveries carry both signatures for 24 hours.</p>
          <CopyButton text={secret} label="Copy new secret" />
        </div>
      )}
      <ErrorNote error={rotate.error} />
      <Charged cost={rotate.cost} balance={rotate.balance} />
    </div>
  );
}

function DeleteWebhook({ view, onDeleted }: { view: WebhookView; onDeleted: () => void }) {
  const remove = usePaidCall<string>({ clearWhileBusy: true, cost: WEBHOOK_CALL_COST });
  // Stays here once deleted: going on to the list would read it (another credit) beyond what the button said.
  // The page drops its paid actions with the same answer that says "Deleted", not a frame later.
  const run = () =>
    void remove
      .run(() => call<string>('DELETE', pathOf(view.webhookId)))
      .then((result) => {
        if (result !== undefined) onDeleted();
      });
  const done = remove.result !== undefined && remove.error === undefined;
  if (done) {
    return (
      <div class="action" role="status">
        <p class="ok">
          Deleted {view.webhookId}. <a href={href('webhooks')}>All webhooks</a> <CostHint credits={WEBHOOK_CALL_COST} />
        </p>
        <Charged cost={remove.cost} balance={remove.balance} />
      </div>
    );
  }
  return (
    <div class="action">
      <div class="actions">
        <ConfirmButton
          label="Delete webhook"
          question={`Delete ${view.webhookId}? ${view.email === undefined ? '' : 'Its address stops receiving mail. '}This cannot be undone.`}
          confirmLabel="Delete"
          danger
          disabled={remove.busy}
          onConfirm={run}
        />
        <CostHint credits={WEBHOOK_CALL_COST} />
      </div>
      <ErrorNote error={remove.error} />
    </div>
  );
}

function EditWebhook({ view, onChange }: { view: WebhookView; onChange: (view: WebhookView) => void }) {
  const save = usePaidCall<WebhookView>({ clearWhileBusy: true, cost: WEBHOOK_CALL_COST });
  const [note, setNote] = useState<string | undefined>(undefined);
  const [invalid, setInvalid] = useState<string | undefined>(undefined);
  // The form restarts from each saved version (its key), so a save shows what the service stored.
  const [version, setVersion] = useState(0);
  const saved = draftOf(view, viewerZone());
  const submit = async (draft: Draft) => {
    const body = patchBody(saved, draft);
    setNote(undefined);
    setInvalid(body.ok ? undefined : body.error);
    if (!body.ok) return;
    if (Object.keys(body.value).length === 0) return setNote('Nothing changed: nothing sent.');
    const answer = await save.run(() => call<WebhookView>('PATCH', pathOf(view.webhookId), { json: body.value }));
    if (answer === undefined) return;
    onChange(answer);
    setVersion((current) => current + 1);
    setNote('Saved.');
  };
  return (
    <WebhookForm
      key={version}
      initial={saved}
      editing
      busy={save.busy}
      submitLabel="Save changes"
      context={{ mailbox: view.email, walletHash: view.hash }}
      onSave={(draft) => void submit(draft)}
    >
      <ErrorNote error={invalid ?? save.error} />
      {note === undefined ? null : (
        <p class="ok" role="status">
          {note}
        </p>
      )}
      <Charged cost={save.cost} balance={save.balance} />
    </WebhookForm>
  );
}
