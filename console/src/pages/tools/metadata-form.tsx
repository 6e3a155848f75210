/** POST /url-to-metadata: 55 credits, 800 with an AI summary; the cost follows the chosen level before it runs. */
import { useState } from 'preact/hooks';
import { call } from '../../api.js';
import { Charged, CostHint, ErrorNote } from '../../components/ui.js';
import { usePaidCall } from '../../components/use-paid-call.js';
import { MetadataResult } from './metadata-result.js';
import { SUMMARY_LEVELS } from './metadata-types.js';
import type { MetadataAnswer, SummaryLevel } from './metadata-types.js';
import { readableError } from './readable-error.js';
import { checkPageUrl } from '../../../../src/features/metadata/page-url-rules.js';

export function UrlMetadata() {
  const [url, setUrl] = useState('');
  const [level, setLevel] = useState<SummaryLevel>('none');
  const credits = SUMMARY_LEVELS.find((candidate) => candidate.level === level)?.credits ?? 55;
  const analysis = usePaidCall<MetadataAnswer>({ cost: credits });
  // The service's own URL rules, run here: a typo is refused in the page, for nothing (docs/console.md).
  const checked = url.trim() === '' ? undefined : checkPageUrl(url);
  const problem = checked === undefined || checked.ok ? null : checked.error;

  const submit = (event: Event) => {
    event.preventDefault();
    if (checked === undefined || !checked.ok) return;
    void analysis.run(() =>
      call<MetadataAnswer>('POST', '/url-to-metadata', { json: { url: url.trim(), aiSummary: level } }),
    );
  };

  return (
    <>
      <form class="tools-form" onSubmit={submit}>
        <div class="row">
          <div class="tools-wide">
            <label for="metadata-url">Page URL</label>
            <input
              id="metadata-url"
              inputMode="url"
              autoComplete="url"
              spellcheck={false}
              placeholder="https://example.com/"
              value={url}
              onInput={(event) => setUrl(event.currentTarget.value)}
            />
          </div>
          <div>
            <label for="metadata-level">AI summary</label>
            <select
              id="metadata-level"
              value={level}
              onChange={(event) => setLevel(event.currentTarget.value as SummaryLevel)}
            >
              {SUMMARY_LEVELS.map((candidate) => (
                <option key={candidate.level} value={candidate.level}>
                  {candidate.label}, {candidate.credits} credits
                </option>
              ))}
            </select>
          </div>
        </div>
        {problem === null ? null : (
          <p class="error" role="alert" data-testid="metadata-problem">
            {problem}
          </p>
        )}
        <ErrorNote error={readableError(analysis.error)} />
        <div class="actions">
          <button type="submit" class="primary" disabled={analysis.busy || checked === undefined || !checked.ok}>
            {analysis.busy ? 'Reading the page…' : 'Read metadata'}
          </button>
          <span aria-live="polite">
            <CostHint credits={credits} />
          </span>
          <span class="muted tools-hint">
            A refused request costs 1 credit; a failure on the service’s side (5xx) nothing.
          </span>
        </div>
        <Charged cost={analysis.cost} balance={analysis.balance} />
      </form>
      {analysis.result === undefined || analysis.error !== undefined ? null : (
        <MetadataResult answer={analysis.result} />
      )}
    </>
  );
}
