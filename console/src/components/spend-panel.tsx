/** Credits spent per hour or day (GET /token/spend, free), refreshed every 30 s and after every charge the console sees. */
import { useEffect, useState } from 'preact/hooks';
import { call, knownBalance, onBalance } from '../api.js';
import { useLoad } from '../use-load.js';
import { CostHint, ErrorNote, Loading } from './ui.js';
import { SpendChart } from './spend-chart.js';
import { spendView } from './spend-series.js';
import type { SpendAnswer, SpendPeriod } from './spend-series.js';

interface Range {
  readonly id: string;
  readonly label: string;
  readonly by: SpendPeriod;
  readonly days: number;
  /** "the last 7 days", for the summary sentence. */
  readonly span: string;
}

const RANGES: readonly Range[] = [
  { id: 'day-7', label: 'Per day, 7 days', by: 'day', days: 7, span: 'the last 7 days' },
  { id: 'hour-2', label: 'Per hour, 48 hours', by: 'hour', days: 2, span: 'the last 48 hours' },
  { id: 'hour-7', label: 'Per hour, 7 days', by: 'hour', days: 7, span: 'the last 7 days' },
];

const REFRESH_MS = 30_000;

export function SpendPanel() {
  const [rangeId, setRangeId] = useState('day-7');
  const range = RANGES.find((candidate) => candidate.id === rangeId) ?? RANGES[0];
  const by = range?.by ?? 'day';
  const days = range?.days ?? 7;
  const spend = useLoad(
    async () => (await call<SpendAnswer>('GET', '/token/spend', { query: { days, by } })).data,
    [days, by],
    REFRESH_MS,
  );
  // Read again after any charge the console sees (the balance moved), so the chart never trails the page's own calls.
  const { reload } = spend;
  useEffect(() => {
    let last = knownBalance();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = onBalance((balance) => {
      if (balance === last) return;
      last = balance;
      clearTimeout(timer);
      timer = setTimeout(reload, 250);
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [reload]);
  return (
    <section class="panel" aria-labelledby="spend-heading">
      <div class="panel-head">
        <h2 id="spend-heading">Credits spent</h2>
        <fieldset class="segmented">
          <legend class="visually-hidden">Period</legend>
          {RANGES.map((candidate) => (
            <label key={candidate.id}>
              <input
                type="radio"
                name="spend-range"
                value={candidate.id}
                checked={candidate.id === rangeId}
                onChange={() => setRangeId(candidate.id)}
              />
              {candidate.label}
            </label>
          ))}
        </fieldset>
        <button type="button" onClick={spend.reload} disabled={spend.loading}>
          Refresh
        </button>
        <CostHint credits={0} />
      </div>
      <ErrorNote error={spend.error} />
      <Loading when={spend.data === undefined && spend.loading} />
      {spend.data === undefined ? null : (
        <SpendChart view={spendView(spend.data)} range={range?.span ?? 'the last 7 days'} />
      )}
      <p class="muted small">
        By category of the call log, in UTC periods; refreshed every 30 seconds and after each charge made here. Free
        calls are not drawn.
      </p>
    </section>
  );
}
