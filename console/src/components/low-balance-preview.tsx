/**
 * The JSON body a low-balance webhook would receive, rendered by the service's own formatters (src/formats), so the
 * preview cannot drift from what is sent. The sample event: the balance has just reached the threshold typed.
 */
import { formatLowBalance, isWebhookFormat } from '../../../src/formats/index.js';
import type { LowBalanceEvent } from '../../../src/formats/index.js';
import { apiRoot } from '../api.js';
import { formatProblem } from './low-balance-draft.js';
import type { LowBalanceWebhookView } from './low-balance-draft.js';

export interface PreviewProps {
  readonly webhook: LowBalanceWebhookView | undefined;
  /** Why the form cannot describe a webhook yet (bad JSON template, bad header line). */
  readonly draftError: string | undefined;
  readonly threshold: number;
  readonly tokenHash: string;
}

/** What the preview shows, computed apart from the markup (and tested through it). */
export function previewOf({ webhook, draftError, threshold, tokenHash }: PreviewProps): {
  body?: string;
  problem?: string;
} {
  if (draftError !== undefined) return { problem: draftError };
  if (webhook === undefined) return {};
  const event: LowBalanceEvent = {
    wallet: threshold,
    threshold,
    token_hash: tokenHash,
    timestamp: new Date().toISOString(),
  };
  const format = isWebhookFormat(webhook.format) ? webhook.format : null;
  const publicUrl = apiRoot().toString().replace(/\/$/, '');
  const problem = formatProblem(webhook) ?? undefined;
  try {
    const body = formatLowBalance(format, event, { template: webhook.template, options: webhook.options, publicUrl });
    return { body: JSON.stringify(body, null, 2), ...(problem === undefined ? {} : { problem }) };
  } catch (error) {
    return { problem: problem ?? (error instanceof Error ? error.message : String(error)) };
  }
}

export function LowBalancePreview(props: PreviewProps) {
  const preview = previewOf(props);
  return (
    <div class="preview">
      <h3 id="preview-heading">Preview</h3>
      {props.webhook === undefined && props.draftError === undefined ? (
        <p class="muted">Give a webhook URL to see the body it would receive.</p>
      ) : (
        <>
          <p class="muted">
            POST {props.webhook?.url ?? ''}, <code>content-type: application/json</code>, when the balance reaches{' '}
            {props.threshold.toLocaleString()}:
          </p>
          {props.threshold > 0 ? null : <p class="muted">Notifications are off while the threshold is 0.</p>}
          {preview.problem === undefined ? null : (
            <p class="error" role="status" data-testid="preview-problem">
              {preview.problem}
            </p>
          )}
          {preview.body === undefined ? null : (
            <pre aria-labelledby="preview-heading" data-testid="preview-body" tabIndex={0}>
              {preview.body}
            </pre>
          )}
        </>
      )}
    </div>
  );
}
