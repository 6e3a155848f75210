// The do-it-yourself alternative to coinop's KV (bench/RESULTS.md): a Fastify server (logger off) whose every call runs one
// Lua script in Redis that looks up the token's wallet, refuses below 1 credit, debits 1, reads or writes the value
// and appends a call-log entry, atomically. GET and POST /kv/:bucket/:key, the token in x-token, plain-text bodies,
// x-cost and x-balance as coinop answers them. A benchmark instrument, never the service.
//
// Durability: whatever the Redis at REDIS_URL keeps. bench/kv.bench.ts starts its own redis-servers with the
// append-only file (no RDB): `appendfsync everysec` (the setting Redis's docs recommend: the file is written before
// the answer but fsynced once a second, so a power cut loses about the last second of calls, two when the disk lags)
// and `appendfsync always` (fsynced before the answer, one fsync for all the writes of an event-loop turn). The
// machine's shared Redis keeps nothing on disk.
//
// Env: PORT; REDIS_URL (default redis://127.0.0.1:6379); BENCH_TOKEN and BENCH_CREDITS fund that token's wallet
// at start. Keys live under `coinop-bench:<pid>:` and are deleted on SIGTERM or SIGINT (never FLUSHALL: the
// Redis is shared).
import { hash } from 'node:crypto';
import Fastify from 'fastify';
import Redis from 'ioredis';

const PREFIX = `coinop-bench:${process.pid}:`;
const MAX_TTL_SECONDS = 2_592_000; // 30 days, as coinop
const LOG_LENGTH = 1000;

// KEYS: wallet, value, log. ARGV: GET or SET, value, ttl seconds, log entry (time method path).
// Returns {401} for an unknown wallet, else {status, balance, body}.
const SCRIPT = `
local held = redis.call('GET', KEYS[1])
if not held then return {401} end
local balance = tonumber(held)
local status, body, cost = 200, 'OK', 1
if balance < 1 then
  status, body, cost = 402, 'Insufficient credits', 0
else
  balance = redis.call('DECRBY', KEYS[1], 1)
  if ARGV[1] == 'GET' then
    body = redis.call('GET', KEYS[2])
    if not body then status, body = 404, 'Key not found' end
  else
    redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
  end
end
redis.call('LPUSH', KEYS[3], ARGV[4] .. ' ' .. status .. ' ' .. cost .. ' ' .. balance)
redis.call('LTRIM', KEYS[3], 0, ${LOG_LENGTH - 1})
return {status, balance, body}
`;

// ioredis rather than node-redis: a third less client CPU per EVALSHA here (15-18 µs against 25-28), so the baseline is not slowed by its client.
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
await redis.connect();
const loadScript = () => redis.script('LOAD', SCRIPT);
let sha = await loadScript();

const walletOf = (token) => hash('sha256', token, 'hex');
if (process.env.BENCH_TOKEN)
  await redis.set(
    `${PREFIX}wallet:${walletOf(process.env.BENCH_TOKEN)}`,
    String(Number(process.env.BENCH_CREDITS ?? 0)),
  );

async function runScript(keys, args) {
  try {
    return await redis.evalsha(sha, keys.length, ...keys, ...args);
  } catch (error) {
    // The script cache was flushed (a Redis restart, SCRIPT FLUSH): load it again once.
    if (!String(error?.message).startsWith('NOSCRIPT')) throw error;
    sha = await loadScript();
    return redis.evalsha(sha, keys.length, ...keys, ...args);
  }
}

/** One metered KV call; returns the plain-text body. */
async function call(request, reply, operation, value = '', ttl = 0) {
  const token = request.headers['x-token'];
  reply.type('text/plain; charset=utf-8');
  if (typeof token !== 'string' || token === '') {
    reply.code(401);
    return 'Unauthorized';
  }
  const wallet = walletOf(token);
  const { bucket, key } = request.params;
  // '/' cannot occur in a bucket or key (the schema refuses it), so `bucket/key` names one pair only.
  const keys = [`${PREFIX}wallet:${wallet}`, `${PREFIX}kv:${wallet}:${bucket}/${key}`, `${PREFIX}log:${wallet}`];
  const [status, balance, body] = await runScript(keys, [
    operation,
    value,
    String(ttl),
    `${Date.now()} ${request.method} ${request.url}`,
  ]);
  reply.code(status);
  if (status === 401) return 'Unauthorized';
  reply.header('x-cost', status === 402 ? '0' : '1').header('x-balance', String(balance));
  return body;
}

const app = Fastify({ logger: false });
// Values are raw text whatever the content type says.
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
app.setErrorHandler((error, _request, reply) => {
  const status = error.statusCode ?? 500;
  reply
    .code(status)
    .type('text/plain; charset=utf-8')
    .send(status < 500 ? error.message : 'Internal error');
});

const NAME = { type: 'string', pattern: '^[^\\x00-\\x1f\\x7f/]{1,30}$' };
const params = { type: 'object', required: ['bucket', 'key'], properties: { bucket: NAME, key: NAME } };
const setQuery = { type: 'object', properties: { ttl: { type: 'string', pattern: '^\\d{1,8}$' } } };

app.get('/healthz', async () => 'ok');
app.get('/kv/:bucket/:key', { schema: { params } }, (request, reply) => call(request, reply, 'GET'));
app.post('/kv/:bucket/:key', { schema: { params, querystring: setQuery } }, (request, reply) => {
  const ttl = request.query.ttl === undefined ? 0 : Number(request.query.ttl);
  if (ttl > MAX_TTL_SECONDS) {
    reply.code(400).type('text/plain; charset=utf-8');
    return `Invalid ttl: must be an integer from 0 to ${MAX_TTL_SECONDS}`;
  }
  return call(
    request,
    reply,
    'SET',
    typeof request.body === 'string' ? request.body : '',
    ttl === 0 ? MAX_TTL_SECONDS : ttl,
  );
});

/** Deletes this run's keys (SCAN, never FLUSHALL) and quits; once, though SIGINT and SIGTERM may both come (Ctrl-C, then the bench's stop). */
let closing;
const shutdown = () => (closing ??= deleteKeysAndQuit());
async function deleteKeysAndQuit() {
  await app.close();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${PREFIX}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
  await redis.quit();
  process.exit(0);
}
process.once('SIGTERM', () => void shutdown());
process.once('SIGINT', () => void shutdown());

await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
