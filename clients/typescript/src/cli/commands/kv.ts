import type { Command } from '../command.js';
import { integer, invocation, required } from '../command.js';
import { UsageError } from '../exit-codes.js';

export const kvCommand: Command = {
  summary: 'key-value store: set, get, del',
  usage: [
    'coinop kv set <bucket> <key> <value> [--ttl seconds]   (value "-" reads standard input)',
    'coinop kv get <bucket> <key>',
    'coinop kv del <bucket> <key>',
  ].join('\n'),
  async run(args) {
    const call = invocation(args, { ttl: { type: 'string' } });
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
        // SPEC has no listing of keys; the CLI says so rather than guessing.
        throw new UsageError('the service offers no way to list keys (SPEC: GET, POST and DELETE on /kv/{bucket}/{key} only)');
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
