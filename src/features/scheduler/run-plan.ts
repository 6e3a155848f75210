import { HOUR } from '../../lib/time.js';
import { parseSchedule } from '../../lib/cron/cron-rules.js';
import type { CronSchedule } from '../../lib/cron/cron-rules.js';

/** docs/contract.md#schedules: a run missed by less than this still fires (once); older ones are skipped. */
export const MISSED_RUN_GRACE_MS = HOUR;

/** What to do with a schedule whose `next_run_at` has come. */
export type RunPlan =
  /** Fire once for `scheduledFor`; the schedule moves on to `nextRunAt`. */
  | { readonly kind: 'fire'; readonly scheduledFor: number; readonly nextRunAt: number | null }
  /** Missed by an hour or more: no run, the schedule moves on. */
  | { readonly kind: 'skip'; readonly scheduledFor: number; readonly nextRunAt: number | null }
  /** The stored cron or time zone no longer parses: the schedule stops (next_run_at cleared). */
  | { readonly kind: 'invalid'; readonly scheduledFor: number; readonly error: string };

/**
 * Pure. The next run is always the first occurrence after `now`, never after `dueAt`: however many
 * occurrences were missed, at most one run fires for them (no burst after downtime).
 */
export function planRun(schedule: CronSchedule | string, dueAt: number, now: number): RunPlan {
  if (typeof schedule === 'string') return { kind: 'invalid', scheduledFor: dueAt, error: schedule };
  const next = schedule.nextAfter(new Date(Math.max(now, dueAt)));
  const nextRunAt = next === null ? null : next.getTime();
  return now - dueAt < MISSED_RUN_GRACE_MS
    ? { kind: 'fire', scheduledFor: dueAt, nextRunAt }
    : { kind: 'skip', scheduledFor: dueAt, nextRunAt };
}

/** Parses each distinct cron + zone once per pass; the error text when it does not parse. */
export function scheduleCache(): (cron: string | null, timezone: string | null) => CronSchedule | string {
  const cache = new Map<string, CronSchedule | string>();
  return (cron, timezone) => {
    if (cron === null || timezone === null) return 'Invalid schedule: cron and timezone are required';
    const key = `${cron}\u0000${timezone}`;
    let entry = cache.get(key);
    if (entry === undefined) {
      const parsed = parseSchedule(cron, timezone);
      entry = parsed.ok ? parsed.schedule : parsed.error;
      cache.set(key, entry);
    }
    return entry;
  };
}
