/**
 * Local wall-clock time in an IANA zone. A wall time is the epoch milliseconds of
 * the local year-month-day-hour-minute-second read as if UTC: subtracting two gives
 * a wall-clock distance that ignores DST, and `floor(wall / DAY)` numbers the local
 * date.
 */
import { DAY, SECOND } from '../time.js';

export interface ZoneClock {
  /** The wall time shown at an instant. */
  wall(instantMs: number): number;
  /**
   * The instants at which clocks show `wallMs`, ascending: one as a rule; two when
   * clocks fall back and the time repeats; none for a time skipped when they spring
   * forward, and then `skippedAt` is the instant they jumped over it (the first
   * instant showing a later time: 03:00 for a skipped 02:30 in Europe/Berlin).
   */
  instantsAt(wallMs: number): { instants: readonly number[]; skippedAt: number };
}

/** Throws RangeError for a zone Intl does not know; validate with `canonicalZone` first. */
export function zoneClock(timezone: string): ZoneClock {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: timezone,
    // h23, not hour12: false, which renders midnight as "24" in some ICU versions.
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const wall = (instantMs: number): number => {
    const parts: Record<string, number> = {};
    for (const { type, value } of format.formatToParts(instantMs)) parts[type] = Number(value);
    const local = Date.UTC(
      parts.year ?? 0,
      (parts.month ?? 1) - 1,
      parts.day ?? 1,
      parts.hour ?? 0,
      parts.minute ?? 0,
      parts.second ?? 0,
    );
    // formatToParts drops milliseconds; zone offsets are whole seconds.
    return local + (((instantMs % 1000) + 1000) % 1000);
  };
  const offsetAt = (instantMs: number): number => wall(instantMs) - instantMs;

  const instantsAt = (wallMs: number): { instants: readonly number[]; skippedAt: number } => {
    // Offsets a day either side are the ones in force around any single transition
    // near this time (zones change offset at most a few times a year).
    const withEarlierOffset = wallMs - offsetAt(wallMs - DAY);
    const withLaterOffset = wallMs - offsetAt(wallMs + DAY);
    const instants = [...new Set([withEarlierOffset, withLaterOffset])]
      .filter((candidate) => wall(candidate) === wallMs)
      .sort((a, b) => a - b);
    if (instants.length > 0) return { instants, skippedAt: NaN };
    // In a gap the later offset reads the time as an instant before the jump and the
    // earlier offset as one after it; bisect (whole seconds) for the jump itself.
    let before = Math.min(withEarlierOffset, withLaterOffset);
    let after = Math.max(withEarlierOffset, withLaterOffset);
    while (after - before > SECOND) {
      const middle = before + Math.floor((after - before) / 2 / SECOND) * SECOND;
      if (wall(middle) > wallMs) after = middle;
      else before = middle;
    }
    return { instants, skippedAt: after };
  };

  return { wall, instantsAt };
}

/** A name that could be an IANA zone id: `UTC`, `Europe/Berlin`, `Etc/GMT+1`, `EST5EDT`; not `+05:30`. */
const IANA_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/**
 * The zone id to store, or null when unknown. Newer ICU accepts raw offsets such as
 * `+05:30`, which are not IANA names, so the shape is checked too. A name differing
 * only in case from Intl's canonical spelling is stored canonically (`utc` → `UTC`);
 * aliases (`Asia/Calcutta`, `US/Eastern`) are kept as written.
 */
export function canonicalZone(timezone: string): string | null {
  if (timezone.length > 64 || !IANA_SHAPE.test(timezone)) return null;
  // tzdata's placeholder for "no local time": some ICU builds (Chromium's) take it, Node's does not, so the console
  // would pass what the service refuses (and charges for).
  if (timezone.toLowerCase() === 'factory') return null;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: timezone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  return resolved.toLowerCase() === timezone.toLowerCase() ? resolved : timezone;
}
