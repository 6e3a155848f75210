import type { Charge } from '../errors.js';

export type Cell = string | number | boolean | null | undefined;

/** An instant as the service writes it (ISO 8601 in UTC, `2026-11-28T02:21:33.000Z`). */
const ISO_INSTANT = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(?:\.\d+)?Z$/;

/**
 * Every date the CLI prints for people, in one format with its zone: `2026-11-28 02:21:33 UTC` (the console shows the
 * same). --json keeps the service's ISO 8601 strings for scripts.
 */
export function when(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  const match = ISO_INSTANT.exec(value);
  return match === null ? value : `${match[1] ?? ''} ${match[2] ?? ''} UTC`;
}

/** Columns padded to their widest cell; a header line on top. */
export function table(headers: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const text = rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? '' : String(cell))));
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...text.map((row) => row[column]?.length ?? 0)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), ...text.map(line)].join('\n');
}

/** `key  value` lines for one object's fields; nested values as compact JSON. */
export function fields(record: Readonly<Record<string, unknown>>): string {
  const entries = Object.entries(record).filter(([, value]) => value !== undefined);
  const width = Math.max(0, ...entries.map(([key]) => key.length));
  return entries
    .map(
      ([key, value]) =>
        `${key.padEnd(width)}  ${typeof value === 'object' && value !== null ? JSON.stringify(value) : when(String(value))}`,
    )
    .join('\n');
}

export function chargeLine(charge: Charge): string {
  return charge.balance === undefined ? `cost ${charge.cost}` : `cost ${charge.cost}, balance ${charge.balance}`;
}

/** What a call cost, for stderr: `(cost 1, balance 98)`; nothing for a free call that says no balance (the operator's). */
export function chargeNote(charge: Charge): string | undefined {
  return charge.cost !== 0 || charge.balance !== undefined ? `(${chargeLine(charge)})` : undefined;
}

export interface Output {
  readonly json: boolean;
  /** The answer: `human()` as text by default, `data` (with cost and balance) under --json. */
  result(data: unknown, charge: Charge | undefined, human: () => string): void;
  /** A line for people (stderr), never mixed into what scripts read. */
  note(text: string): void;
}

export function output(
  json: boolean,
  stdout: NodeJS.WritableStream = process.stdout,
  stderr: NodeJS.WritableStream = process.stderr,
): Output {
  return {
    json,
    result(data, charge, human) {
      if (json) {
        stdout.write(
          `${JSON.stringify(charge === undefined ? { data } : { data, cost: charge.cost, balance: charge.balance ?? null }, null, 2)}\n`,
        );
        return;
      }
      const text = human();
      if (text !== '') stdout.write(`${text}\n`);
      const note = charge === undefined ? undefined : chargeNote(charge);
      if (note !== undefined) stderr.write(`${note}\n`);
    },
    note(text) {
      stderr.write(`${text}\n`);
    },
  };
}

/** Where a listing's next page starts, for people (stderr); scripts read `cursor` from --json. */
export function nextPageNote(out: Output, what: string, cursor: string | null): void {
  if (!out.json && cursor !== null) out.note(`more ${what}: add --cursor ${JSON.stringify(cursor)}`);
}
