// The do-it-yourself alternative on PostgreSQL (bench/RESULTS.md): what a team would write in a week. A Fastify server
// (logger off) and a pg.Pool (its default 10 connections); GET and POST /kv/:bucket/:key, the token in x-token,
// plain-text bodies, x-cost and x-balance as coinop answers them. Every call is ONE transaction: debit the wallet
// found by the token's SHA-256 by 1 credit unless that would take it below 0 (402, nothing debited), read the value
// or upsert it with its TTL (?ttl=, 0 or none: 30 days, as coinop), insert a call-log row, COMMIT. The statements are
// named (prepared once per connection), the one optimisation pg's README shows. A benchmark instrument, never the
// service.
//
// Durability: PostgreSQL's default synchronous_commit=on: the answer follows the commit's WAL flush, so the debit,
// the value and the log row are on disk when the client reads it. Every call of one wallet takes that wallet's row
// lock until its commit, so one wallet's calls run one after another, a WAL flush each (several wallets' commits
// share flushes).
//
// Env: PORT; DATABASE_URL (a scratch schema first in its search_path: the tables are created there at start, and
// the benchmark drops the schema); BENCH_TOKEN and BENCH_CREDITS fund that token's wallet at start.
import { hash } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const MAX_TTL_SECONDS = 2_592_000; // 30 days, as coinop

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });

await pool.query(`
  CREATE TABLE IF NOT EXISTS wallets (
    hash text PRIMARY KEY,
    balance bigint NOT NULL CHECK (balance >= 0)
  );
  CREATE TABLE IF NOT EXISTS kv (
    wallet text NOT NULL,
    bucket text NOT NULL,
    key text NOT NULL,
    value text NOT NULL,
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (wallet, bucket, key)
  );
  CREATE TABLE IF NOT EXISTS call_log (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    wallet text NOT NULL,
    at timestamptz NOT NULL DEFAULT now(),
    method text NOT NULL,
    path text NOT NULL,
    status integer NOT NULL,
    cost integer NOT NULL,
    balance bigint NOT NULL
  );
  CREATE INDEX IF NOT EXISTS call_log_wallet_at ON call_log (wallet, at);
`);

const walletOf = (token) => hash('sha256', token, 'hex');
if (process.env.BENCH_TOKEN)
  await pool.query(
    'INSERT INTO wallets (hash, balance) VALUES ($1, $2) ON CONFLICT (hash) DO UPDATE SET balance = excluded.balance',
    [walletOf(process.env.BENCH_TOKEN), Number(process.env.BENCH_CREDITS ?? 0)],
  );

const DEBIT = 'UPDATE wallets SET balance = balance - 1 WHERE hash = $1 AND balance >= 1 RETURNING balance';
const BALANCE = 'SELECT balance FROM wallets WHERE hash = $1';
const READ = 'SELECT value FROM kv WHERE wallet = $1 AND bucket = $2 AND key = $3 AND expires_at > now()';
const WRITE = `INSERT INTO kv (wallet, bucket, key, value, expires_at) VALUES ($1, $2, $3, $4, now() + $5 * interval '1 second')
  ON CONFLICT (wallet, bucket, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`;
const LOG = 'INSERT INTO call_log (wallet, method, path, status, cost, balance) VALUES ($1, $2, $3, $4, $5, $6)';

/** Runs `work` in one transaction on a client of the pool; a client whose ROLLBACK failed is discarded, not reused. */
async function inTransaction(work) {
  const client = await pool.connect();
  let broken;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError) => (broken = rollbackError));
    throw error;
  } finally {
    client.release(broken);
  }
}

/** One metered KV call in one transaction; returns the plain-text body. */
async function call(request, reply, operation, value = '', ttl = 0) {
  const token = request.headers['x-token'];
  reply.type('text/plain; charset=utf-8');
  if (typeof token !== 'string' || token === '') {
    reply.code(401);
    return 'Unauthorized';
  }
  const wallet = walletOf(token);
  const { bucket, key } = request.params;
  const outcome = await inTransaction(async (client) => {
    const query = (name, text, values) => client.query({ name, text, values });
    let status = 200;
    let body = 'OK';
    let cost = 1;
    let balance;
    const debited = await query('debit', DEBIT, [wallet]);
    if (debited.rowCount === 0) {
      const held = await query('balance', BALANCE, [wallet]);
      if (held.rowCount === 0) return { status: 401 };
      [status, body, cost, balance] = [402, 'Insufficient credits', 0, held.rows[0].balance];
    } else {
      balance = debited.rows[0].balance;
      if (operation === 'GET') {
        const found = await query('read', READ, [wallet, bucket, key]);
        if (found.rowCount === 0) [status, body] = [404, 'Key not found'];
        else body = found.rows[0].value;
      } else {
        await query('write', WRITE, [wallet, bucket, key, value, ttl]);
      }
    }
    await query('log', LOG, [wallet, request.method, request.url, status, cost, balance]);
    return { status, body, cost, balance };
  });
  reply.code(outcome.status);
  if (outcome.status === 401) return 'Unauthorized';
  reply.header('x-cost', String(outcome.cost)).header('x-balance', String(outcome.balance));
  return outcome.body;
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

/** Closes the server and the pool, once, though SIGINT and SIGTERM may both come (Ctrl-C, then the bench's stop). */
let closing;
const shutdown = () => (closing ??= closeAll());
async function closeAll() {
  await app.close();
  await pool.end();
  process.exit(0);
}
process.once('SIGTERM', () => void shutdown());
process.once('SIGINT', () => void shutdown());

await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
