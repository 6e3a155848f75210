/**
 * Evaluates parsed cron fields on local wall-clock time. Wall times are epoch
 * milliseconds of the local date and time read as if UTC (see zone-clock.ts), so
 * this file knows nothing of zones or DST.
 *
 * We search ourselves rather than through croner: croner 9.1 steps onto days that
 * do not exist (Feb 30, Feb 31) and lets them roll into the next month, which skips
 * real runs (`0 0 1,31 * *` from Feb 2 jumps to Mar 31, missing Mar 1), and the
 * window check must agree exactly with the runs we fire.
 */
import { DAY, MINUTE } from '../time.js';
import type { CronFields } from './cron-fields.js';

/** Longest length of each month, February counting its leap day. */
const MONTH_MAX_DAYS: readonly number[] = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const MINUTES_PER_DAY = 24 * 60;
/** The Gregorian calendar repeats every 400 years, so a pattern that fires at all fires within one cycle. */
const SEARCH_LIMIT_DAYS = 146_097;

export interface CronMatcher {
  /** Does the pattern fire on this local date (days since 1970-01-01)? */
  matchesDay(epochDay: number): boolean;
  /** The first matching wall time strictly after `wallMs`, at minute precision; null if the pattern never fires. */
  nextWallTime(wallMs: number): number | null;
}

export function compileMatcher(fields: CronFields): CronMatcher {
  const months = mask(fields.month, 13);
  const days = mask(fields.day, 32);
  const weekdays = mask(fields.weekday, 7);
  // Vixie: OR only when both day fields are restricted; a leading `*` makes it AND.
  const both = fields.dayStar || fields.weekdayStar;
  // Every weekday falls on every valid date within 400 years, so under AND the pattern
  // fires iff some listed day exists in some listed month; under OR it always does.
  // Knowing this up front keeps a never-firing pattern from scanning 400 years.
  const fires = !both || fields.month.some((m) => fields.day.some((d) => d <= (MONTH_MAX_DAYS[m - 1] ?? 0)));
  // Minutes of the day at which a matching date fires, ascending (hour and minute lists are sorted).
  const times = fields.hour.flatMap((h) => fields.minute.map((m) => h * 60 + m));

  const matchesDay = (epochDay: number): boolean => {
    const date = new Date(epochDay * DAY);
    if (months[date.getUTCMonth() + 1] !== 1) return false;
    const dayOk = days[date.getUTCDate()] === 1;
    const weekdayOk = weekdays[date.getUTCDay()] === 1;
    return both ? dayOk && weekdayOk : dayOk || weekdayOk;
  };

  const nextWallTime = (wallMs: number): number | null => {
    if (!fires) return null;
    const startMinute = Math.floor(wallMs / MINUTE) + 1;
    let day = Math.floor(startMinute / MINUTES_PER_DAY);
    let fromMinute = startMinute - day * MINUTES_PER_DAY;
    for (const lastDay = day + SEARCH_LIMIT_DAYS; day <= lastDay; day += 1, fromMinute = 0) {
      if (!matchesDay(day)) continue;
      const time = times.find((t) => t >= fromMinute);
      if (time !== undefined) return day * DAY + time * MINUTE;
    }
    return null;
  };

  return { matchesDay, nextWallTime };
}

function mask(values: readonly number[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (const value of values) out[value] = 1;
  return out;
}
