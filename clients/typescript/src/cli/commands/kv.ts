import type { Command } from '../command.js';
import { integer, invocation, required } from '../command.js';
import { UsageError } from '../exit-codes.js';
import { table } from '../output.js';

export const kvCommand: Command = {
  summary: 'key-value store: set, get, del, ls',
  usage: [
    'coinop kv set <bucket> <key> <value> [--ttl seconds]   (value "-" reads standard input)',
    'coinop kv get <bucket> <key>',
    'coinop kv del <bucket> <key>',
    'coinop kv ls <bucket> [--prefix p] [-n count] [--after key]   (one page; the next page starts --after the last key shown)',
  ].join('\n'),
  async run(args) {
    const call = invocation(args, { ttl: { type: 'string' }, prefix: { type: 'string' }, n: { type: 'string', short: 'n' }, after: { type: 'string' } });
    const [sub] = call.positionals;
    const bucket = () => required(call.positionals, 1, 'bucket');
    const key = () => required(call.positionals, 2, 'key');
    switch (sub) {
      case 'set': {
        const given = required(call.positionals, 3, 'value');
        const value = given === '-' ? await readStdin() : given;
        const ttl = integer(call.values.ttl, 'ttl');
        const result = await call.client().kvSet(bucket(), key(), value, ttl === undefined ? {} : { ttl });
        call.out.result(result.data, result, () => result.data);
        return;
      }
      case 'get': {
        const result = await call.client().kvGet(bucket(), key());
        call.out.result(result.data, result, () => result.data);
        return;
      }
      case 'del':
      case 'rm': {
        const result = await call.client().kvDelete(bucket(), key());
        call.out.result(result.data, result, () => result.data);
        return;
      }
      case 'ls':
      case 'list': {
        const n = integer(call.values.n, 'n');
        const { prefix, after } = call.values;
        const result = await call.client().kvList(bucket(), {
          ...(prefix === undefined ? {} : { prefix }),
          ...(n === undefined ? {} : { n }),
          ...(after === undefined ? {} : { after }),
        });
        const { keys, next } = result.data;
        call.out.result(result.data, result, () =>
          keys.length === 0
            ? '(no keys)'
            : table(
                ['KEY', 'EXPIRES'],
                keys.map((entry) => [entry.key, entry.expiresAt]),
              ),
        );
        // Where the next page starts, for people (stderr); scripts read `next` from --json.
        if (!call.out.json && next !== null) call.out.note(`more keys: add --after ${JSON.stringify(next)}`);
        return;
      }
      default:
        throw new UsageError(sub === undefined ? 'missing subcommand' : `unknown subcommand: ${sub}`);
    }
  },
};

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
