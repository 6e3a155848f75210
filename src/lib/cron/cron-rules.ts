/**
 * Schedule rules: parse and validate a webhook's `schedule.cron` + `schedule.timezone`,
 * compute its next run, and enforce the 30-day rules of docs/contract.md#schedules. Pure: no I/O,
 * no clock (callers pass `now`), no configuration.
 *
 * A schedule is a set of local wall-clock times in its zone, each firing at most
 * once. Daylight-saving behaviour of `nextAfter`:
 * - Spring forward: a run whose local time is skipped fires once, at the moment
 *   clocks jump (02:30 in Europe/Berlin or America/New_York fires at 03:00; 02:00 on
 *   Lord Howe's 30-minute change fires at 02:30). Every run inside the gap, and one
 *   set for the first minute after it, collapse into that single run: no burst, and
 *   runs stay in order (cronie also runs skipped jobs right after the change).
 * - Fall back: a local time that occurs twice fires once, at its first occurrence
 *   (still daylight time), in every zone. The repeated stretch does not fire again,
 *   so `* * * * *` pauses for an hour that night. A schedule created between the two
 *   occurrences, after the first, fires at the second.
 */
import { DAY } from '../time.js';
import { parseCronFields } from './cron-fields.js';
import { compileMatcher } from './cron-match.js';
import { canonicalZone, zoneClock } from './zone-clock.js';

export interface CronSchedule {
  readonly cron: string;
  readonly timezone: string;
  /** The first run strictly after `instant`, or null when the pattern never fires. */
  nextAfter(instant: Date): Date | null;
}

export type ParseScheduleResult = { ok: true; schedule: CronSchedule } | { ok: false; error: string };

/** docs/contract.md#schedules: first run within 30 days of the create/update. */
export const FIRST_RUN_LIMIT_DAYS = 30;
/** docs/contract.md#schedules: at most one calendar month, 31 days, between consecutive runs. */
export const MAX_GAP_DAYS = 31;
/** Gaps are checked over a 4-year cycle, so every February 29 case is seen once. */
const CYCLE_DAYS = 4 * 365 + 1;

/** Parses and validates; returns the schedule or a short human error for a 400 body. */
export function parseSchedule(cron: string, timezone: string): ParseScheduleResult {
  const parsed = parseCronFields(cron);
  if (!parsed.ok) return parsed;
  const zone = canonicalZone(timezone);
  if (zone === null) return { ok: false, error: unknownZone(timezone) };

  const matcher = compileMatcher(parsed.fields);
  const clock = zoneClock(zone);
  const schedule: CronSchedule = {
    cron,
    timezone: zone,
    nextAfter(instant) {
      const afterMs = instant.getTime();
      let from = clock.wall(afterMs);
      // Each pass moves to a later wall time. A second pass would only be needed if
      // every occurrence of the found time lay at or before `instant`, which its being
      // later than the wall time of `instant` rules out; the bound keeps that honest.
      for (let pass = 0; pass < 8; pass += 1) {
        const wallMs = matcher.nextWallTime(from);
        if (wallMs === null) return null;
        const { instants, skippedAt } = clock.instantsAt(wallMs);
        const run = instants.length === 0 ? skippedAt : instants.find((at) => at > afterMs);
        if (run !== undefined && run > afterMs) return new Date(run);
        from = wallMs;
      }
      return null;
    },
  };
  return { ok: true, schedule: Object.freeze(schedule) };
}

/**
 * The 30-day rules of docs/contract.md#schedules: first run within 30 days of `now`, and no gap
 * between consecutive runs over 31 days of wall-clock time in the zone, checked over
 * every gap of a 4-year cycle starting at now. Returns the 400 message or null.
 *
 * Gaps are measured between local calendar dates, not minutes: every day the pattern
 * matches holds the same times of day (a time skipped by spring-forward still
 * fires, when clocks jump), so the longest gap runs from the last run of one matching date to the
 * first run of the next, and it exceeds 31 days exactly when those dates are 32 or
 * more days apart. That keeps the check to one step per day (about 1,461) even for
 * `* * * * *`, and a DST shift cannot push a monthly schedule over the limit.
 */
export function checkScheduleWindow(schedule: CronSchedule, now: Date): string | null {
  const parsed = parseCronFields(schedule.cron);
  if (!parsed.ok) return parsed.error;
  const matcher = compileMatcher(parsed.fields);

  const first = schedule.nextAfter(now);
  if (first === null) return 'Invalid schedule.cron: never fires (no date matches its day, month and weekday)';
  if (first.getTime() - now.getTime() > FIRST_RUN_LIMIT_DAYS * DAY) {
    return `Invalid schedule.cron: first run must fall within ${FIRST_RUN_LIMIT_DAYS} days`;
  }

  const clock = zoneClock(schedule.timezone);
  const localDay = (instant: Date): number => Math.floor(clock.wall(instant.getTime()) / DAY);
  const lastDay = localDay(now) + CYCLE_DAYS;
  // Walk local dates from the first run; the gap that starts inside the cycle is
  // followed to its end even when that end lies past the cycle.
  let previousRunDay = localDay(first);
  for (let day = previousRunDay + 1; previousRunDay <= lastDay; day += 1) {
    if (day - previousRunDay > MAX_GAP_DAYS) {
      return `Invalid schedule.cron: interval between runs exceeds ${MAX_GAP_DAYS} days`;
    }
    if (matcher.matchesDay(day)) previousRunDay = day;
  }
  return null;
}

/** Echo user input safely in a message: JSON quoting, bounded length. */
/** The refusal of a zone that is not an IANA name; the clients word a zone given alone (a PATCH) with it too. */
export const unknownZone = (timezone: string): string =>
  `Invalid schedule.timezone: unknown IANA time zone ${quote(timezone)}`;

const quote = (text: string): string => JSON.stringify(text.length > 64 ? `${text.slice(0, 64)}…` : text);
