/**
 * What a schedule means, before saving: a plain-language description (cronstrue, English) and the next five runs,
 * computed by the service's own schedule code (src/lib/cron/cron-rules.ts), so the times and the error
 * text are the ones the API would give. Shown in the schedule's zone and in the viewer's.
 */
import { useMemo } from 'preact/hooks';
import { toString as describeCron } from 'cronstrue';
import { checkScheduleWindow, parseSchedule } from '../../../../src/lib/cron/cron-rules.js';
import { formatInstant, plural, viewerZone } from '../../components/ui.js';

export const RUNS_SHOWN = 5;
/** What each scheduled run costs the wallet (the service's price list, README "Pricing"). */
export const SCHEDULED_RUN_COST = 2;
const DAY_MS = 86_400_000;
/** A schedule runs at most once a minute: a day holds at most this many runs. */
const MOST_RUNS_A_DAY = 1440;

export type Explained =
  { ok: true; description: string; runs: Date[]; zone: string; warning: string | null } | { ok: false; error: string };

/** How often a schedule runs from `now`: in the next 24 hours, and in the next 7 days when that is few enough to count. */
export interface RunCount {
  readonly day: number;
  readonly week: number | undefined;
}
/** Counting stops here (a run a minute is 1,440 a day); beyond WEEK_COUNT_LIMIT a week is not counted, the day says it. */
const WEEK_COUNT_LIMIT = 300;

/** Pure: the runs ahead of a valid schedule, for what it costs a day; undefined for one the service would refuse. */
export function countRuns(cron: string, timezone: string, now = new Date()): RunCount | undefined {
  const parsed = parseSchedule(cron.trim(), timezone.trim());
  if (!parsed.ok) return undefined;
  const { schedule } = parsed;
  const start = now.getTime();
  let day = 0;
  let week = 0;
  for (
    let found = schedule.nextAfter(now);
    found !== null && found.getTime() - start <= 7 * DAY_MS;
    found = schedule.nextAfter(found)
  ) {
    if (found.getTime() - start <= DAY_MS) day += 1;
    week += 1;
    if (day >= MOST_RUNS_A_DAY) return { day, week: undefined };
    if (week > WEEK_COUNT_LIMIT && found.getTime() - start > DAY_MS) return { day, week: undefined };
  }
  return { day, week };
}

/** Pure: the schedule explained, or the service's message for it. `now` is when the runs are counted from. */
export function explainSchedule(cron: string, timezone: string, now = new Date()): Explained {
  const parsed = parseSchedule(cron.trim(), timezone.trim());
  if (!parsed.ok) return parsed;
  const { schedule } = parsed;
  const runs: Date[] = [];
  let after = now;
  for (
    let found = schedule.nextAfter(after);
    found !== null && runs.length < RUNS_SHOWN;
    found = schedule.nextAfter(after)
  ) {
    runs.push(found);
    after = found;
  }
  let description: string;
  try {
    description = describeCron(cron.trim(), {
      use24HourTimeFormat: true,
      throwExceptionOnParseError: true,
      verbose: false,
    });
  } catch {
    description = 'A valid schedule (no plain-language description for this form).';
  }
  // The 30-day rules the API checks on save (docs/contract.md#schedules).
  return { ok: true, description, runs, zone: schedule.timezone, warning: checkScheduleWindow(schedule, now) };
}

const formatIn = (date: Date, timeZone: string): string => formatInstant(date, timeZone);

export function CronExplainer({ cron, timezone }: { cron: string; timezone: string }) {
  const explained = explainSchedule(cron, timezone);
  // Counting a day's runs walks the schedule up to 1,440 times: once per cron and zone typed, not per render.
  const count = useMemo(() => countRuns(cron, timezone), [cron, timezone]);
  const local = viewerZone();
  if (!explained.ok) {
    return (
      <div class="cron-explainer" aria-live="polite">
        <p class="error" data-testid="cron-error">
          {explained.error}
        </p>
      </div>
    );
  }
  const { zone } = explained;
  return (
    <div class="cron-explainer" aria-live="polite">
      <p data-testid="cron-description">
        <strong>{explained.description}</strong> <span class="muted">({zone})</span>
      </p>
      {count === undefined ? null : <DailyCost count={count} />}
      {explained.warning === null ? null : (
        <p class="error" data-testid="cron-warning">
          {explained.warning}
        </p>
      )}
      <table class="runs" data-testid="next-runs">
        <caption>Next {explained.runs.length} runs</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">In {zone}</th>
            {local === zone ? null : <th scope="col">Your time ({local})</th>}
          </tr>
        </thead>
        <tbody>
          {explained.runs.map((run, index) => (
            <tr key={run.getTime()}>
              <td class="num">{index + 1}</td>
              <td>
                <time dateTime={run.toISOString()}>{formatIn(run, zone)}</time>
              </td>
              {local === zone ? null : <td>{formatIn(run, local)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** "2 credits a run: 2,880 credits a day (1,440 runs in the next 24 hours)", or a week's figure for a sparse schedule. */
function DailyCost({ count }: { count: RunCount }) {
  const cost = (runs: number) => plural(runs * SCHEDULED_RUN_COST, 'credit');
  const perDay = (runs: number) => {
    const credits = (runs * SCHEDULED_RUN_COST) / 7;
    return credits < 1 ? 'under 1 credit a day' : `about ${plural(Math.round(credits), 'credit')} a day`;
  };
  return (
    <p data-testid="cron-cost">
      {plural(SCHEDULED_RUN_COST, 'credit')} a run:{' '}
      {count.week === undefined || count.week === count.day * 7 ? (
        <>
          <strong>{cost(count.day)} a day</strong> ({plural(count.day, 'run')} in the next 24 hours).
        </>
      ) : (
        <>
          <strong>{cost(count.week)} a week</strong>, {perDay(count.week)} ({plural(count.week, 'run')} in the next 7
          days).
        </>
      )}
    </p>
  );
}

/** Every IANA zone the browser knows, for the time-zone input's suggestions. */
export function TimezoneOptions({ id }: { id: string }) {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return (
    <datalist id={id}>
      {zones.map((zone) => (
        <option key={zone} value={zone} />
      ))}
    </datalist>
  );
}
