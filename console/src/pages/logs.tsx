/**
 * The call log (GET /token/logs, free): filters, newest first, paged with the service's cursor; the first page
 * refreshes every 5 s unless paused. A filtered page may be short while older entries remain (the service looks at
 * a bounded number of entries per call), so "Older" stays available until the cursor is null.
 */
import { useState } from 'preact/hooks';
import type { PageProps } from '../app.js';
import { call } from '../api.js';
import type { OkBody } from '../api-types.js';
import { useLoad } from '../use-load.js';
import { CostHint, ErrorNote, Loading, PageTitle } from '../components/ui.js';
import { LogFilters } from '../components/log-filters.js';
import type { LogFilter } from '../components/log-filters.js';
import { LogTable } from '../components/log-table.js';
import type { LogEntry } from '../components/log-table.js';
import './logs.css';

type LogsAnswer = OkBody<'logsList'>;

const REFRESH_MS = 5_000;
const EMPTY: LogFilter = { type: '', status: '', path: '', n: 25 };

export function Logs(_props: PageProps) {
  const [filter, setFilter] = useState<LogFilter>(EMPTY);
  // Cursors of the pages before the one shown: [] is the newest page.
  const [trail, setTrail] = useState<readonly string[]>([]);
  const [paused, setPaused] = useState(false);
  const cursor = trail[trail.length - 1];
  const onFirstPage = cursor === undefined;
  const logs = useLoad(
    async () =>
      (
        await call<LogsAnswer>('GET', '/token/logs', {
          query: { n: filter.n, type: filter.type, status: filter.status, path: filter.path, cursor },
        })
      ).data,
    [filter, cursor],
    onFirstPage && !paused ? REFRESH_MS : undefined,
  );
  const next = logs.data?.cursor ?? null;
  const apply = (changed: LogFilter) => {
    setFilter(changed);
    setTrail([]);
  };
  return (
    <>
      <PageTitle title="Call logs">Call logs</PageTitle>
      <p class="muted">
        Every call the wallet made in the last 7 days, newest first (<CostHint credits={0} />; reading the log is itself
        logged). Entries can appear a few seconds after the call.
      </p>
      <LogFilters initial={filter} onApply={apply} />
      <div class="log-bar">
        <span class="muted" role="status" aria-live="polite">
          {onFirstPage
            ? paused
              ? 'Newest entries; refreshing paused.'
              : 'Newest entries, refreshed every 5 seconds.'
            : `Older entries, page ${trail.length + 1}.`}
        </span>
        <button type="button" aria-pressed={paused} onClick={() => setPaused(!paused)} disabled={!onFirstPage}>
          {paused ? 'Resume' : 'Pause'}
        </button>
        <button type="button" onClick={() => setTrail([])} disabled={onFirstPage}>
          Newest
        </button>
        <button type="button" onClick={() => next !== null && setTrail([...trail, next])} disabled={next === null}>
          Older
        </button>
      </div>
      <ErrorNote error={logs.error} />
      <Loading when={logs.data === undefined && logs.loading} />
      <div aria-busy={logs.loading ? 'true' : 'false'} data-testid="log-results">
        {logs.data === undefined ? null : <Entries entries={logs.data.logs} more={next !== null} />}
      </div>
    </>
  );
}

/** `more`: older entries remain, so an empty or short filtered page is not the end. */
function Entries({ entries, more }: { entries: readonly LogEntry[]; more: boolean }) {
  if (entries.length === 0) {
    return (
      <p class="panel muted">
        {more ? 'No matching entries among these; press Older to keep looking.' : 'No calls match these filters.'}
      </p>
    );
  }
  return (
    <LogTable entries={entries}>{more ? <p class="muted small">Older entries remain: press Older.</p> : null}</LogTable>
  );
}
