import type { Charge } from '../errors.js';

export type Cell = string | number | boolean | null | undefined;

/** Columns padded to their widest cell; a header line on top. */
export function table(headers: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const text = rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? '' : String(cell))));
  const widths = headers.map((header, column) => Math.max(header.length, ...text.map((row) => row[column]?.length ?? 0)));
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
    .map(([key, value]) => `${key.padEnd(width)}  ${typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)}`)
    .join('\n');
}

export function chargeLine(charge: Charge): string {
  return charge.balance === undefined ? `cost ${charge.cost}` : `cost ${charge.cost}, balance ${charge.balance}`;
}

export interface Output {
  readonly json: boolean;
  /** The answer: `human()` as text by default, `data` (with cost and balance) under --json. */
  result(data: unknown, charge: Charge | undefined, human: () => string): void;
  /** A line for people (stderr), never mixed into what scripts read. */
  note(text: string): void;
}

export function output(json: boolean, stdout: NodeJS.WritableStream = process.stdout, stderr: NodeJS.WritableStream = process.stderr): Output {
  return {
    json,
    result(data, charge, human) {
      if (json) {
        stdout.write(`${JSON.stringify(charge === undefined ? { data } : { data, cost: charge.cost, balance: charge.balance ?? null }, null, 2)}\n`);
        return;
      }
      const text = human();
      if (text !== '') stdout.write(`${text}\n`);
      if (charge !== undefined && (charge.cost !== 0 || charge.balance !== undefined)) stderr.write(`(${chargeLine(charge)})\n`);
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
