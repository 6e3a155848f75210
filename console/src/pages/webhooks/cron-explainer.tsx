/**
 * What a schedule means, before saving: a plain-language description (cronstrue, English) and the next five runs,
 * computed by the service's own schedule code (src/features/scheduler/cron-rules.ts), so the times and the error
 * text are the ones the API would give. Shown in the schedule's zone and in the viewer's.
 */
import { toString as describeCron } from 'cronstrue';
import { checkScheduleWindow, parseSchedule } from '../../../../src/features/scheduler/cron-rules.js';

export const RUNS_SHOWN = 5;

export type Explained = { ok: true; description: string; runs: Date[]; zone: string; warning: string | null } | { ok: false; error: string };

/** Pure: the schedule explained, or the service's message for it. `now` is when the runs are counted from. */
export function explainSchedule(cron: string, timezone: string, now = new Date()): Explained {
  const parsed = parseSchedule(cron.trim(), timezone.trim());
  if (!parsed.ok) return parsed;
  const { schedule } = parsed;
  const runs: Date[] = [];
  let after = now;
  for (let found = schedule.nextAfter(after); found !== null && runs.length < RUNS_SHOWN; found = schedule.nextAfter(after)) {
    runs.push(found);
    after = found;
  }
  let description: string;
  try {
    description = describeCron(cron.trim(), { use24HourTimeFormat: true, throwExceptionOnParseError: true, verbose: false });
  } catch {
    description = 'A valid schedule (no plain-language description for this form).';
  }
  // The 30-day rules the API checks on save (docs/contract.md#schedules).
  return { ok: true, description, runs, zone: schedule.timezone, warning: checkScheduleWindow(schedule, now) };
}

const viewerZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

function formatIn(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(date);
}

export function CronExplainer({ cron, timezone }: { cron: string; timezone: string }) {
  const explained = explainSchedule(cron, timezone);
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
