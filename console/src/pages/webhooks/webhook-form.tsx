/** Create or edit a webhook, either mode, with the payload preview and, for schedules, the cron explainer beside it. */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { NO_INBOUND_MAIL } from '../../../../src/features/webhooks/inbound-mail-rule.js';
import { useServiceFacts } from '../../service-facts.js';
import { CostHint } from '../../components/ui.js';
import { CronExplainer, SCHEDULED_RUN_COST, TimezoneOptions, explainSchedule } from './cron-explainer.js';
import { FORMATS, type Draft, type Mode } from './form-state.js';
import { HeadersEditor } from './headers-editor.js';
import { PayloadPreview, type PreviewContext } from './payload-preview.js';
import { WEBHOOK_CALL_COST } from './types.js';
import { draftProblem, WEBHOOK_ID_INPUT_PATTERN } from './draft-check.js';

const FORMAT_LABELS: Readonly<Record<string, string>> = {
  '': 'None: the inbound e-mail payload as JSON',
  slack: 'Slack',
  discord: 'Discord',
  teams: 'Microsoft Teams',
  telegram: 'Telegram (needs chat_id)',
  pagerduty: 'PagerDuty (needs routing_key)',
  custom: 'Custom JSON template',
};

/** Retries are opt-in (docs/reference.md#delivery-retries): attempts after a failed first one, 0 to 8. */
const RETRY_CHOICES = [0, 1, 2, 3, 4, 5, 6, 7, 8];

export interface WebhookFormProps {
  readonly initial: Draft;
  /** Editing a saved webhook: its id is fixed. */
  readonly editing: boolean;
  readonly busy: boolean;
  readonly submitLabel: string;
  readonly context: Omit<PreviewContext, 'nextRun'>;
  readonly onSave: (draft: Draft) => void;
  /** Shown under the submit button: the service's answer. */
  readonly children?: ComponentChildren;
}

export function WebhookForm({ initial, editing, busy, submitLabel, context, onSave, children }: WebhookFormProps) {
  const [draft, setDraft] = useState(initial);
  const set = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));
  // Where no e-mail arrives, the service refuses a new mailbox (and charges for it): only a saved one stays one.
  const noMail = useServiceFacts()?.receivesMail === false;
  const mailboxRefused = noMail && !(editing && initial.mode === 'mailbox');
  useEffect(() => {
    if (mailboxRefused && !editing) setDraft((current) => ({ ...current, mode: 'scheduled' }));
  }, [mailboxRefused, editing]);
  const explained = draft.mode === 'scheduled' ? explainSchedule(draft.cron, draft.timezone) : undefined;
  const nextRun = explained?.ok ? explained.runs[0] : undefined;
  const problem = mailboxRefused && draft.mode === 'mailbox' ? NO_INBOUND_MAIL : draftProblem(draft, editing);
  const submit = (event: Event) => {
    event.preventDefault();
    if (problem === null) onSave(draft);
  };
  return (
    <div class="webhook-editor">
      <form class="panel" onSubmit={submit} aria-label={submitLabel} noValidate>
        <fieldset class="modes">
          <legend>Mode</legend>
          <ModeChoice mode="mailbox" current={draft.mode} disabled={mailboxRefused} onPick={(mode) => set({ mode })}>
            Mailbox: deliver e-mail sent to the webhook’s address
          </ModeChoice>
          <ModeChoice mode="scheduled" current={draft.mode} onPick={(mode) => set({ mode })}>
            Scheduled: call the URL on a cron schedule
          </ModeChoice>
          {mailboxRefused ? (
            <p class="muted small" data-testid="no-inbound-mail">
              This service receives no e-mail: mailbox webhooks are not available here.
            </p>
          ) : null}
        </fieldset>
        {editing ? null : (
          <>
            <label for="webhook-id">Webhook ID</label>
            <input
              id="webhook-id"
              value={draft.webhookId}
              placeholder="default"
              pattern={WEBHOOK_ID_INPUT_PATTERN}
              aria-describedby="webhook-id-hint"
              autoComplete="off"
              onInput={(event) => set({ webhookId: event.currentTarget.value })}
            />
            <p class="muted" id="webhook-id-hint">
              1 to 30 of A–Z, a–z, 0–9, _ and -. Empty: <code>default</code>.
            </p>
          </>
        )}
        <label for="webhook-url">Callback URL</label>
        <input
          id="webhook-url"
          type="url"
          required
          value={draft.url}
          placeholder="https://hooks.example.com/coinop"
          aria-describedby="webhook-url-hint"
          onInput={(event) => set({ url: event.currentTarget.value })}
        />
        <p class="muted" id="webhook-url-hint">
          HTTPS (https://…) on a public host.
        </p>
        {draft.mode === 'mailbox' ? (
          <MailboxFields draft={draft} set={set} />
        ) : (
          <ScheduleFields draft={draft} set={set} />
        )}
        <HeadersEditor rows={draft.headers} onChange={(headers) => set({ headers })} />
        <label for="webhook-retry">Retries after a failed delivery</label>
        <select
          id="webhook-retry"
          value={String(draft.retryAttempts)}
          onChange={(event) => set({ retryAttempts: Number(event.currentTarget.value) })}
        >
          {RETRY_CHOICES.map((attempts) => (
            <option key={attempts} value={String(attempts)}>
              {attempts === 0
                ? 'None: one attempt'
                : `${attempts} more attempt${attempts === 1 ? '' : 's'}, from 30 s, doubling`}
            </option>
          ))}
        </select>
        {problem === null ? null : (
          <p class="error" aria-live="polite" data-testid="webhook-problem">
            {problem}
          </p>
        )}
        <div class="actions">
          <button type="submit" class="primary" disabled={busy || problem !== null}>
            {submitLabel}
          </button>
          <CostHint credits={WEBHOOK_CALL_COST} />
          {problem === null ? null : (
            <span class="muted small">Nothing is sent (or charged) until the form is right.</span>
          )}
        </div>
        {children}
      </form>
      <div class="webhook-side">
        {draft.mode === 'scheduled' ? (
          <section class="panel" aria-labelledby="cron-heading">
            <h2 id="cron-heading">Schedule</h2>
            <CronExplainer cron={draft.cron} timezone={draft.timezone} />
          </section>
        ) : null}
        <PayloadPreview draft={draft} context={{ ...context, nextRun }} />
      </div>
    </div>
  );
}

function ModeChoice({
  mode,
  current,
  disabled = false,
  onPick,
  children,
}: {
  mode: Mode;
  current: Mode;
  disabled?: boolean;
  onPick: (mode: Mode) => void;
  children: ComponentChildren;
}) {
  return (
    <label class="choice">
      <input
        type="radio"
        name="mode"
        value={mode}
        checked={current === mode}
        disabled={disabled}
        onChange={() => onPick(mode)}
      />{' '}
      {children}
    </label>
  );
}

type Setter = (change: Partial<Draft>) => void;

function MailboxFields({ draft, set }: { draft: Draft; set: Setter }) {
  return (
    <>
      <label for="webhook-format">Format</label>
      <select id="webhook-format" value={draft.format} onChange={(event) => set({ format: event.currentTarget.value })}>
        {FORMATS.map((format) => (
          <option key={format} value={format}>
            {FORMAT_LABELS[format]}
          </option>
        ))}
      </select>
      {draft.format === 'custom' ? (
        <>
          <label for="webhook-template">Template (JSON)</label>
          <textarea
            id="webhook-template"
            rows={8}
            spellcheck={false}
            value={draft.template}
            aria-describedby="template-hint"
            onInput={(event) => set({ template: event.currentTarget.value })}
          />
          <p class="muted" id="template-hint">
            Placeholders: <code>{'{{from.email}}'}</code>, <code>{'{{attachments[0].filename}}'}</code>,{' '}
            <code>{'{{text|html}}'}</code>, <code>{'{{from.name|"someone"}}'}</code>. At most 2048 bytes, 5 levels.
          </p>
        </>
      ) : null}
      {draft.format === 'telegram' ? (
        <>
          <label for="webhook-chat-id">Telegram chat_id</label>
          <input
            id="webhook-chat-id"
            value={draft.chatId}
            autoComplete="off"
            onInput={(event) => set({ chatId: event.currentTarget.value })}
          />
        </>
      ) : null}
      {draft.format === 'pagerduty' ? (
        <>
          <label for="webhook-routing-key">PagerDuty routing_key</label>
          <input
            id="webhook-routing-key"
            value={draft.routingKey}
            autoComplete="off"
            onInput={(event) => set({ routingKey: event.currentTarget.value })}
          />
        </>
      ) : null}
      <label class="choice">
        <input
          type="checkbox"
          checked={draft.includeAttachments}
          onChange={(event) => set({ includeAttachments: event.currentTarget.checked })}
        />{' '}
        Include attachments (mail with attachments costs 5 credits instead of 2)
      </label>
    </>
  );
}

function ScheduleFields({ draft, set }: { draft: Draft; set: Setter }) {
  return (
    <>
      <div class="row">
        <div>
          <label for="webhook-cron">Cron expression</label>
          <input
            id="webhook-cron"
            value={draft.cron}
            autoComplete="off"
            spellcheck={false}
            aria-describedby="cron-hint"
            onInput={(event) => set({ cron: event.currentTarget.value })}
          />
        </div>
        <div>
          <label for="webhook-timezone">Time zone</label>
          <input
            id="webhook-timezone"
            list="timezones"
            value={draft.timezone}
            autoComplete="off"
            onInput={(event) => set({ timezone: event.currentTarget.value })}
          />
          <TimezoneOptions id="timezones" />
        </div>
      </div>
      <p class="muted" id="cron-hint">
        5 fields: minute hour day month weekday. Each run costs {SCHEDULED_RUN_COST} credits (the explainer adds them up
        per day).
      </p>
      <label class="choice">
        <input
          type="checkbox"
          checked={draft.active}
          onChange={(event) => set({ active: event.currentTarget.checked })}
        />{' '}
        Active
      </label>
    </>
  );
}
