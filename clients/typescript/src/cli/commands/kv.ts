import type { Command } from '../command.js';
import { integer, invocation, required } from '../command.js';
import { UsageError } from '../exit-codes.js';
import { nextPageNote, table, when } from '../output.js';
import { price, priced, prices } from '../price.js';

/** Listing options shared by `ls` and `buckets`: the query of GET /kv/{bucket} and GET /kv. */
function paging(values: { prefix?: string; limit?: string; cursor?: string }): {
  prefix?: string;
  limit?: number;
  cursor?: string;
} {
  const limit = integer(values.limit, 'limit');
  return {
    ...(values.prefix === undefined ? {} : { prefix: values.prefix }),
    ...(limit === undefined ? {} : { limit }),
    ...(values.cursor === undefined ? {} : { cursor: values.cursor }),
  };
}

export const kvCommand: Command = {
  summary: `key-value store: set, get, del, ls, buckets (${prices({ set: 'kvSet', get: 'kvGet', del: 'kvDelete', ls: 'kvList', buckets: 'kvBuckets' })})`,
  usage: [
    priced('coinop kv set <bucket> <key> <value> [--ttl seconds]', price('kvSet'), 'value "-" reads standard input'),
    priced('coinop kv get <bucket> <key>', price('kvGet')),
    priced('coinop kv del <bucket> <key>', price('kvDelete')),
    priced(
      'coinop kv ls <bucket> [--prefix p] [-n|--limit count] [--cursor c]',
      price('kvList'),
      'one page of keys; the next page is --cursor shown after it',
    ),
    priced(
      'coinop kv buckets [--prefix p] [-n|--limit count] [--cursor c]',
      price('kvBuckets'),
      'one page of buckets, with their keys and bytes',
    ),
  ].join('\n'),
  async run(args) {
    const call = invocation(args, {
      ttl: { type: 'string' },
      prefix: { type: 'string' },
      limit: { type: 'string', short: 'n' },
      cursor: { type: 'string' },
    });
    const [sub] = call.positionals;
    const bucket = () => required(call.positionals, 1, 'bucket');
    const key = () => required(call.positionals, 2, 'key');
    switch (sub) {
      case 'set': {
        call.only('kv set', 4, ['ttl']);
        const given = required(call.positionals, 3, 'value');
        const value = given === '-' ? await readStdin() : given;
        const ttl = integer(call.values.ttl, 'ttl');
        const result = await call.client().kvSet(bucket(), key(), value, ttl === undefined ? {} : { ttl });
        call.out.result(result.data, result, () => result.data);
        return;
      }
      case 'get': {
        call.only('kv get', 3);
        const result = await call.client().kvGet(bucket(), key());
        call.out.result(result.data, result, () => result.data);
        return;
      }
      case 'del':
      case 'rm': {
        call.only(`kv ${sub}`, 3);
        const result = await call.client().kvDelete(bucket(), key());
        call.out.result(result.data, result, () => result.data);
        return;
      }
      case 'ls':
      case 'list': {
        call.only(`kv ${sub}`, 2, ['prefix', 'limit', 'cursor']);
        const result = await call.client().kvList(bucket(), paging(call.values));
        const { keys, cursor } = result.data;
        call.out.result(result.data, result, () =>
          keys.length === 0
            ? '(no keys)'
            : table(
                ['KEY', 'EXPIRES', 'BYTES'],
                keys.map((entry) => [entry.key, when(entry.expiresAt), entry.size]),
              ),
        );
        nextPageNote(call.out, 'keys', cursor);
        return;
      }
      case 'buckets': {
        if (call.positionals.length > 1) throw new UsageError('kv buckets takes no <bucket>');
        call.only('kv buckets', 1, ['prefix', 'limit', 'cursor']);
        const result = await call.client().kvBuckets(paging(call.values));
        const { buckets, cursor } = result.data;
        call.out.result(result.data, result, () =>
          buckets.length === 0
            ? '(no buckets)'
            : table(
                ['BUCKET', 'KEYS', 'BYTES'],
                // A capped count is a lower bound: "1000+".
                buckets.map((entry) => [
                  entry.bucket,
                  entry.capped ? `${entry.keys}+` : entry.keys,
                  entry.capped ? `${entry.size}+` : entry.size,
                ]),
              ),
        );
        nextPageNote(call.out, 'buckets', cursor);
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
