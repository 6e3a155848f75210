import { setTimeout as sleep } from 'node:timers/promises';
import type { Command } from '../command.js';
import { integer, invocation } from '../command.js';
import { UsageError } from '../exit-codes.js';
import { LOG_HEADERS, logRow, logTable } from '../log-table.js';
import { price, priced } from '../price.js';
import type { LogEntry, LogsQuery } from '../../types.js';

const FOLLOW_INTERVAL_MS = 2000;
const FOLLOW_WIDTHS = [24, 6, 32, 16, 6, 4, 7];

export const logsCommand: Command = {
  summary: `recent calls made with the token (${price('logsList')}); --follow keeps printing new ones`,
  usage: priced('coinop logs [-n count] [--type kv|token|webhook|…] [--follow]', price('logsList')),
  async run(args) {
    const call = invocation(args, {
      n: { type: 'string', short: 'n' },
      type: { type: 'string' },
      follow: { type: 'boolean', short: 'f', default: false },
    });
    call.only('logs', 0, ['n', 'type', 'follow']);
    const n = integer(call.values.n, 'n');
    const query = {
      ...(n === undefined ? {} : { n }),
      ...(call.values.type === undefined ? {} : { type: call.values.type }),
    } as LogsQuery;
    const client = call.client();
    const first = await client.logs(query);
    if (call.values.follow !== true) {
      call.out.result(first.data, first, () => logTable(first.data.logs));
      return;
    }
    if (call.out.json) throw new UsageError('--follow prints lines; use it without --json');
    // Lines appear one by one, so columns have fixed widths; the follower's own log reads are not shown.
    const line = (cells: readonly (string | number | undefined)[]) =>
      cells
        .map((cell, column) => (cell === undefined ? '' : String(cell)).padEnd(FOLLOW_WIDTHS[column] ?? 0))
        .join('  ')
        .trimEnd();
    const ownRead = (entry: LogEntry) => entry.endpoint === 'token' && entry.path.startsWith('/token/logs');
    // Oldest first, as a terminal reads them.
    const entries = [...first.data.logs].reverse();
    const seen = new Set(entries.map((entry) => entry.id));
    process.stdout.write(`${[LOG_HEADERS, ...entries.map(logRow)].map(line).join('\n')}\n`);
    for (;;) {
      await sleep(FOLLOW_INTERVAL_MS);
      const next = await client.logs({ ...query, n: 100 });
      for (const entry of [...next.data.logs].reverse()) {
        if (seen.has(entry.id)) continue;
        seen.add(entry.id);
        if (!ownRead(entry)) process.stdout.write(`${line(logRow(entry))}\n`);
      }
    }
  },
};
