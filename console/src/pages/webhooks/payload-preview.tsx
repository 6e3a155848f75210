/**
 * The body a delivery would POST, rendered before saving by the service's own formatter (src/formats `formatEmail`)
 * from a sample mail, or the scheduled-run payload for a schedule. Template and option errors come from the same
 * save-time check the service runs (`validateFormatConfig`), so what shows here is what the API would say.
 */
import './buffer-shim.js';
import { formatEmail, isWebhookFormat, validateFormatConfig } from '../../../../src/formats/index.js';
import type { Draft } from './form-state.js';
import { optionsOf, parseTemplate } from './form-state.js';
import { SAMPLE_MAILBOX, SAMPLE_WALLET_HASH, sampleEmail, sampleRun } from './sample-payloads.js';

export interface PreviewContext {
  /** The webhook's own address once it has one. */
  readonly mailbox?: string | undefined;
  /** The wallet's hash, when an answer has shown it. */
  readonly walletHash?: string | undefined;
  /** The schedule's next run, when the cron and zone are valid. */
  readonly nextRun?: Date | undefined;
}

export type Preview = { ok: true; body: unknown } | { ok: false; error: string };

/** Pure: the body for the draft, or the error the service would answer on save. */
export function previewBody(draft: Draft, context: PreviewContext, now = new Date()): Preview {
  if (draft.mode === 'scheduled') {
    const id = draft.webhookId.trim() || 'default';
    return { ok: true, body: sampleRun(id, context.walletHash ?? SAMPLE_WALLET_HASH, context.nextRun ?? now) };
  }
  const options = optionsOf(draft);
  let template: unknown;
  if (draft.format === 'custom') {
    const parsed = parseTemplate(draft.template);
    if (!parsed.ok) return parsed;
    template = parsed.value;
  }
  const problem = validateFormatConfig({ format: draft.format, options, template });
  // A missing chat_id or routing_key is refused on save, but the body is still worth showing.
  if (problem !== null && !/requires options\./.test(problem)) return { ok: false, error: problem };
  const payload = sampleEmail(context.mailbox ?? SAMPLE_MAILBOX, draft.includeAttachments, now);
  const format = isWebhookFormat(draft.format) ? draft.format : null;
  try {
    return { ok: true, body: formatEmail(format, payload, { options, template }) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

export function PayloadPreview({ draft, context }: { draft: Draft; context: PreviewContext }) {
  const preview = previewBody(draft, context);
  const what =
    draft.mode === 'scheduled'
      ? 'a scheduled run'
      : `a sample e-mail${draft.format === '' ? ' (no format: the inbound e-mail payload)' : ` as ${draft.format}`}`;
  const warning =
    draft.mode === 'mailbox'
      ? validateFormatConfig({ format: draft.format, options: optionsOf(draft), template: undefined })
      : null;
  return (
    <section class="panel preview" aria-labelledby="preview-heading">
      <h2 id="preview-heading">Preview</h2>
      <p class="muted">The JSON body {what} would POST, rendered in this page by the service’s own formatter.</p>
      {preview.ok ? (
        <>
          {warning !== null && /requires options\./.test(warning) ? (
            <p class="muted">{warning.replace('Invalid format: ', 'Note: ')}.</p>
          ) : null}
          <pre data-testid="payload-preview" aria-label="Payload preview" tabIndex={0}>
            {JSON.stringify(preview.body, null, 2)}
          </pre>
        </>
      ) : (
        <p class="error" role="status" aria-live="polite" data-testid="preview-error">
          {preview.error}
        </p>
      )}
    </section>
  );
}
