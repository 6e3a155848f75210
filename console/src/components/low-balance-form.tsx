/** Low-balance settings (GET /token/settings and PUT, 1 credit each; a save reads them back: 2) with a live preview of the webhook's body. */
import { useState } from 'preact/hooks';
import { ApiError, call, describeError } from '../api.js';
import { useLoad } from '../use-load.js';
import { Charged, CostHint, ErrorNote, Loading } from './ui.js';
import { DEFAULT_TEMPLATE, draftOf, updateOf, webhookOf } from './low-balance-draft.js';
import type { Draft, SettingsView } from './low-balance-draft.js';
import { LowBalancePreview } from './low-balance-preview.js';
import { readSettings, rememberSettings } from '../wallet-details.js';

const FORMATS: ReadonlyArray<{ value: string; label: string }> = [
  { value: '', label: 'None (the plain JSON event)' },
  { value: 'slack', label: 'Slack' },
  { value: 'discord', label: 'Discord' },
  { value: 'teams', label: 'Microsoft Teams' },
  { value: 'telegram', label: 'Telegram' },
  { value: 'pagerduty', label: 'PagerDuty' },
  { value: 'custom', label: 'Custom template' },
];

export function LowBalanceSettings({ tokenHash }: { tokenHash: string }) {
  // Read once a session (kept in wallet-details.ts); a save reads them back as stored.
  const [saves, setSaves] = useState(0);
  // A save reads the settings back itself (and remembers them): this shows them again without another charge.
  const settings = useLoad(() => readSettings<SettingsView>(false), [saves]);
  return (
    <section class="panel" aria-labelledby="low-balance-heading">
      <h2 id="low-balance-heading">Low-balance notifications</h2>
      <ErrorNote error={settings.error} />
      <Loading when={settings.data === undefined && settings.loading} />
      {settings.data === undefined ? null : (
        <SettingsForm saved={settings.data} tokenHash={tokenHash} onSaved={() => setSaves((count) => count + 1)} />
      )}
    </section>
  );
}

function SettingsForm({ saved, tokenHash, onSaved }: { saved: SettingsView; tokenHash: string; onSaved: () => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved));
  /** What the last save did: whether it was saved, what it cost in all (the save and the read back), any error. */
  const [result, setResult] = useState<{ error?: string; saved?: boolean; cost?: number; balance?: number }>({});
  const [busy, setBusy] = useState(false);
  const set = (field: keyof Draft) => (event: { currentTarget: { value: string } }) => {
    const value = event.currentTarget.value;
    setDraft((previous) => ({
      ...previous,
      [field]: value,
      // A custom format starts from a working template rather than an error.
      ...(field === 'format' && value === 'custom' && previous.template.trim() === ''
        ? { template: DEFAULT_TEMPLATE }
        : {}),
    }));
  };
  const webhook = webhookOf(draft, saved.low_balance_webhook);
  const threshold = Number(draft.threshold);

  const save = async (event: Event) => {
    event.preventDefault();
    const update = updateOf(draft, saved);
    if (!update.ok) return setResult({ error: update.error });
    setBusy(true);
    let paid: { cost?: number; balance?: number } = {};
    let stored = false;
    try {
      const put = await call('PUT', '/token/settings', { json: update.value });
      stored = true;
      paid = { cost: put.cost, balance: put.balance };
      // Read back as stored (secret values return as ***): the form restarts from them. Both charges show as one.
      const back = await call<SettingsView>('GET', '/token/settings');
      rememberSettings(back.data);
      paid = { cost: (put.cost ?? 0) + (back.cost ?? 0), balance: back.balance ?? put.balance };
      setResult({ saved: stored, ...paid });
      onSaved();
    } catch (failure) {
      // A refusal is charged too (its cost comes with it): said with the error, as for every paid action.
      if (failure instanceof ApiError && failure.cost !== undefined)
        paid = { cost: (paid.cost ?? 0) + failure.cost, balance: failure.balance ?? paid.balance };
      setResult({ error: describeError(failure), saved: stored, ...paid });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="low-balance" onSubmit={(event) => void save(event)}>
      <div class="lb-fields">
        <label for="lb-threshold">Threshold (credits)</label>
        <input
          id="lb-threshold"
          type="number"
          min={0}
          step={1}
          inputMode="numeric"
          value={draft.threshold}
          onInput={set('threshold')}
        />
        <p class="muted small">Notify once when the balance falls to this or below; 0 turns notifications off.</p>
        <label for="lb-email">E-mail</label>
        <input
          id="lb-email"
          type="email"
          autoComplete="email"
          value={draft.email}
          onInput={set('email')}
          placeholder="ops@example.com"
        />
        <label for="lb-url">Webhook URL (HTTPS)</label>
        <input
          id="lb-url"
          type="url"
          value={draft.url}
          onInput={set('url')}
          placeholder="https://hooks.slack.com/services/…"
        />
        <label for="lb-format">Format</label>
        <select id="lb-format" value={draft.format} onChange={set('format')}>
          {FORMATS.map((format) => (
            <option key={format.value} value={format.value}>
              {format.label}
            </option>
          ))}
        </select>
        {draft.format === 'telegram' ? (
          <Field id="lb-chat-id" label="Telegram chat_id" value={draft.chatId} onInput={set('chatId')} />
        ) : null}
        {draft.format === 'pagerduty' ? (
          <Field
            id="lb-routing-key"
            label="PagerDuty routing_key"
            value={draft.routingKey}
            onInput={set('routingKey')}
          />
        ) : null}
        {draft.format === 'custom' ? (
          <>
            <label for="lb-template">
              Template (JSON; placeholders {'{{wallet}}'}, {'{{threshold}}'}, {'{{token_hash}}'})
            </label>
            <textarea id="lb-template" value={draft.template} onInput={set('template')} spellcheck={false} rows={6} />
          </>
        ) : null}
        <label for="lb-headers">Extra headers (one “Name: value” per line)</label>
        <textarea
          id="lb-headers"
          value={draft.headers}
          onInput={set('headers')}
          spellcheck={false}
          rows={2}
          placeholder="Authorization: Bearer …"
        />
        <p class="muted small">
          Saved header values and secret options read back as ***; type them again when you change the webhook.
        </p>
      </div>
      <LowBalancePreview
        webhook={webhook.ok ? webhook.value : undefined}
        draftError={webhook.ok ? undefined : webhook.error}
        threshold={Number.isFinite(threshold) ? threshold : 0}
        tokenHash={tokenHash}
      />
      <div class="actions lb-actions">
        <button type="submit" class="primary" disabled={busy}>
          Save settings
        </button>
        {/* The save (1) and reading the settings back as stored (1): secret values return as ***, so the form restarts from them. */}
        <CostHint credits={2} />
        <span class="muted small">the save, then reading the settings back</span>
        {result.saved === true ? (
          <span class="ok" role="status">
            Saved.
          </span>
        ) : null}
      </div>
      <ErrorNote error={result.error} />
      <Charged cost={result.cost} balance={result.balance} />
    </form>
  );
}

function Field({
  id,
  label,
  value,
  onInput,
}: {
  id: string;
  label: string;
  value: string;
  onInput: (event: { currentTarget: { value: string } }) => void;
}) {
  return (
    <>
      <label for={id}>{label}</label>
      <input id={id} value={value} onInput={onInput} autoComplete="off" spellcheck={false} />
    </>
  );
}
