/**
 * The 5-field cron grammar of the API: classic (Vixie) cron and nothing more, so
 * seconds, `@` shortcuts, `L`, `W`, `#` and `?` are refused with a message naming
 * the field. Produces plain value sets; `cron-match.ts` evaluates them.
 */

export type CronFieldName = 'minute' | 'hour' | 'day' | 'month' | 'weekday';

export interface CronFields {
  /** Sorted, distinct values; weekday uses 0–6 with 0 = Sunday (a written 7 is folded into 0). */
  readonly minute: readonly number[];
  readonly hour: readonly number[];
  readonly day: readonly number[];
  readonly month: readonly number[];
  readonly weekday: readonly number[];
  /**
   * Vixie cron's DOM_STAR/DOW_STAR: the field was written starting with `*` (so `*` and
   * `*\/2` both count). When either is set, day and weekday are AND'ed; when both
   * are restricted they are OR'ed.
   */
  readonly dayStar: boolean;
  readonly weekdayStar: boolean;
}

interface FieldSpec {
  readonly name: CronFieldName;
  readonly min: number;
  readonly max: number;
  /** Three-letter names, index i meaning value `namesFrom + i`. */
  readonly names?: readonly string[];
  readonly namesFrom?: number;
}

const FIELD_SPECS: readonly FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day', min: 1, max: 31 },
  {
    name: 'month',
    min: 1,
    max: 12,
    namesFrom: 1,
    names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
  },
  // 7 is accepted as Sunday, as in Vixie cron, so `fri-sun` and `5-7` work.
  { name: 'weekday', min: 0, max: 7, namesFrom: 0, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];

const PREFIX = 'Invalid schedule.cron:';
/** Long enough for a list of all 60 minutes; bounds the work and the echoed text. */
export const MAX_CRON_LENGTH = 256;
/** Quartz/croner extensions we refuse: L, nL, friL, LW, 15W, 5#3, ?. */
const EXTENSION = /[#?]|^(?:\d*|[a-z]{3})L$|^\d*W$|^LW$/i;

export type ParseFieldsResult = { ok: true; fields: CronFields } | { ok: false; error: string };

export function parseCronFields(cron: string): ParseFieldsResult {
  if (cron.length > MAX_CRON_LENGTH) return fail(`${PREFIX} longer than ${MAX_CRON_LENGTH} characters`);
  const text = cron.trim();
  if (text.startsWith('@'))
    return fail(`${PREFIX} @ shortcuts are not supported, use 5 fields (minute hour day month weekday)`);
  const parts = text === '' ? [] : text.split(/\s+/);
  if (parts.length !== FIELD_SPECS.length) return fail(`${PREFIX} must have 5 fields (minute hour day month weekday)`);

  const values: number[][] = [];
  for (const [index, spec] of FIELD_SPECS.entries()) {
    const parsed = parseField(spec, parts[index] ?? '');
    if (typeof parsed === 'string') return fail(`${PREFIX} ${parsed}`);
    values.push(parsed);
  }
  const [minute = [], hour = [], day = [], month = [], weekday = []] = values;
  const dayText = parts[2] ?? '';
  const weekdayText = parts[4] ?? '';
  return {
    ok: true,
    fields: {
      minute,
      hour,
      day,
      month,
      weekday: [...new Set(weekday.map((d) => d % 7))].sort((a, b) => a - b),
      dayStar: dayText.startsWith('*'),
      weekdayStar: weekdayText.startsWith('*'),
    },
  };
}

const fail = (error: string): ParseFieldsResult => ({ ok: false, error });

/** Sorted distinct values of one field, or a message naming the field and the rule. */
function parseField(spec: FieldSpec, text: string): number[] | string {
  const chosen = new Set<number>();
  for (const item of text.split(',')) {
    if (item === '') return `${spec.name} "${text}" has an empty list item`;
    const problem = addItem(spec, item, chosen);
    if (problem !== null) return problem;
  }
  return [...chosen].sort((a, b) => a - b);
}

function addItem(spec: FieldSpec, item: string, into: Set<number>): string | null {
  const [base = '', stepText, extra] = item.split('/');
  if (extra !== undefined) return `${spec.name} "${item}" has more than one step`;
  let step = 1;
  if (stepText !== undefined) {
    const span = spec.max - spec.min + 1;
    step = /^\d{1,3}$/.test(stepText) ? Number(stepText) : NaN;
    if (!(step >= 1 && step <= span)) return `${spec.name} "${item}" step must be between 1 and ${span}`;
  }

  let from: number;
  let to: number;
  if (base === '*') {
    // Sunday once, not as both 0 and 7.
    from = spec.min;
    to = spec.name === 'weekday' ? 6 : spec.max;
  } else {
    const bounds = base.split('-');
    if (bounds.length > 2) return `${spec.name} "${item}" is not a valid range`;
    const start = parseValue(spec, bounds[0] ?? '');
    if (typeof start === 'string') return start;
    from = start;
    if (bounds.length === 2) {
      let end = parseValue(spec, bounds[1] ?? '');
      if (typeof end === 'string') return end;
      // `fri-sun` means Friday to Sunday: a named Sunday ending a range counts as 7
      // (but `sun-sun` stays Sunday alone).
      if (spec.name === 'weekday' && end === 0 && start > 0 && /^[a-z]/i.test(bounds[1] ?? '')) end = 7;
      if (start > end) return `${spec.name} "${item}" range start is after its end`;
      to = end;
    } else {
      // `5/15` means 5-max/15 (as cronie reads it); a bare `5` is just 5.
      to = stepText === undefined ? start : spec.max;
    }
  }
  for (let value = from; value <= to; value += step) into.add(value);
  return null;
}

function parseValue(spec: FieldSpec, token: string): number | string {
  if (/^\d{1,3}$/.test(token)) {
    const value = Number(token);
    if (value < spec.min || value > spec.max) {
      return `${spec.name} "${token}" is out of range ${spec.min}-${spec.max}`;
    }
    return value;
  }
  const nameIndex = spec.names?.indexOf(token.toLowerCase()) ?? -1;
  if (nameIndex >= 0) return (spec.namesFrom ?? 0) + nameIndex;
  if (token === '') return `${spec.name} has an empty value`;
  if (EXTENSION.test(token)) return `${spec.name} "${token}" uses unsupported syntax (L, W, # and ? are not allowed)`;
  const expected = spec.names ? `a number or a ${spec.name} name` : 'a number';
  return `${spec.name} "${token}" is not ${expected}`;
}
