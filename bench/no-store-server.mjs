// A benchmark instrument, never the service: coinop's app (routes, metering hooks, token hash, wallet
// cache, validation, headers) with the store's work on the KV GET and POST paths taken out, part by part. Env KEEP
// (a comma list of `charge`, `read`, `write`, `log`; default empty) names the parts that stay real:
// - charge: the ledger's charge (a write to the wallet row, committed in the group commit); taken out, it
//   answers from memory with a balance of 1,000,000, settled at the end of the turn as the real one;
// - read: the KV read; taken out, it returns a constant value;
// - write: the KV set; taken out, it writes nothing and is done at the end of the turn (a real read needs it kept:
//   the ladder's key is set through this server);
// - log: the call log (record and flush); taken out, its rows are dropped.
// With all four kept this is the whole GET or POST on the store DATABASE_URL names (SQLite with SQLITE_SYNCHRONOUS as
// set, FULL by default); with none, no commit and no fsync. Tokens and wallets always come from the real store,
// and the admin API works with ADMIN_TOKEN (the ladder funds its wallet there, for the real charge). The ladder
// loads it to show what each part of the metered path costs (bench/ladder.bench.ts). Needs `npm run build`.
import { loadConfig } from '../dist/config.js';
import { createDeps } from '../dist/deps.js';
import { buildApp } from '../dist/app.js';
import { setImmediate, setInterval } from 'node:timers';

const PARTS = ['charge', 'read', 'write', 'log'];
const keep = new Set(
  (process.env.KEEP ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean),
);
for (const part of keep)
  if (!PARTS.includes(part)) throw new Error(`KEEP: unknown part "${part}" (known: ${PARTS.join(', ')})`);

const config = loadConfig();
const real = createDeps(config);
await real.store.migrate();
// A charge taken out is still answered when the real one would be: at the end of the turn, when the group of the
// turn commits (a read-only call's charge waits for its COMMIT, not its fsync). Answered at once instead, each answer
// would leave inside the socket's read callback and wake the load generator on its own, which on a slow VM cost more
// than the whole charge (bench/RESULTS.md, twenty-third session): the rung would measure wake-ups, not the metering.
let turnCommitted;
const endOfTurn = () => {
  if (turnCommitted === undefined)
    turnCommitted = new Promise((resolve) =>
      setImmediate(() => {
        turnCommitted = undefined;
        resolve();
      }),
    );
  return turnCommitted;
};
// The KV route's read, by its text: should that text change, the read misses this stub, finds no key on this
// server and answers 404, which stops the ladder (it refuses non-2xx) instead of measuring a real read. On
// PostgreSQL the route reads in batches (another text), so there the stub always misses: keep `read` there.
const KV_READ = 'SELECT value, expires_at FROM kv WHERE wallet_id = $1 AND bucket = $2 AND key = $3';
const stubbedRead = new Proxy(real.store.read, {
  get(target, property) {
    if (property !== 'get') return Reflect.get(target, property);
    return (sql, params) =>
      sql === KV_READ
        ? Promise.resolve({ value: 'a value of moderate size', expires_at: Number.MAX_SAFE_INTEGER })
        : target.get(sql, params);
  },
});
// The KV route's set (an upsert into kv, one row a call on SQLite), by the start of its text. Should the route's set
// take another path, it would be made for real and the rung would measure it under a name that says it does not:
// the check at the end of this file stops the server then, as a missed read stops the ladder with a 404.
const KV_SET = 'INSERT INTO kv ';
const stubbedWriteOne = (sql, params, options) =>
  sql.startsWith(KV_SET) ? endOfTurn().then(() => []) : real.store.writeOne(sql, params, options);
// The real ledger (wallet lookups from the store), each part either its own (bound) or taken out.
const kept = (part, method, stub) => (keep.has(part) ? real.ledger[method].bind(real.ledger) : stub);
const ledger = Object.assign(Object.create(real.ledger), {
  charge: kept('charge', 'charge', () => ({ ok: true, balance: 1_000_000, durable: endOfTurn() })),
  record: kept('log', 'record', () => {}),
  flush: kept('log', 'flush', async () => {}),
});
const store = {
  ...real.store,
  ...(keep.has('read') ? {} : { read: stubbedRead }),
  ...(keep.has('write') ? {} : { writeOne: stubbedWriteOne }),
};
const deps = { ...real, store, ledger };
const app = await buildApp(deps);
await app.listen({ port: config.port, host: config.host });
// With the set taken out no row ever reaches kv (the ladder's key is set through this server too): once a second, off
// the requests' path, a row there means a set went past the stub, and the server exits, so the ladder's load fails.
if (!keep.has('write'))
  setInterval(async () => {
    if ((await real.store.read.get('SELECT 1 AS found FROM kv LIMIT 1')) === undefined) return;
    process.stderr.write('no-store-server: a KV set was made for real with `write` taken out (see KV_SET)\n');
    process.exit(1);
  }, 1000).unref();
