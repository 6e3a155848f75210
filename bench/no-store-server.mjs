// A benchmark instrument, never the service: coinop's app (routes, metering hooks, token hash, wallet
// cache, validation, headers) with the store's work on the KV GET path taken out: the charge answers
// from memory, the KV read returns a constant, log rows are dropped, so no commit and no fsync. Tokens
// and wallets still come from a real SQLite file (DATABASE_URL). The ladder loads it to show what the
// metered path costs before any store work (bench/RESULTS.md, fifth session). Needs `npm run build`.
import { loadConfig } from '../dist/config.js';
import { createDeps } from '../dist/deps.js';
import { buildApp } from '../dist/app.js';

const config = loadConfig();
const real = createDeps(config);
await real.store.migrate();
const alreadyDurable = Promise.resolve();
// The KV route's read, by its text: should that text change, the read misses this stub, finds no key on this
// server and answers 404, which stops the ladder (it refuses non-2xx) instead of measuring a real read.
const KV_READ = 'SELECT value, expires_at FROM kv WHERE wallet_id = $1 AND bucket = $2 AND key = $3';
const read = new Proxy(real.store.read, {
  get(target, property) {
    if (property !== 'get') return Reflect.get(target, property);
    return (sql, params) =>
      sql === KV_READ ? Promise.resolve({ value: 'a value of moderate size', expires_at: Number.MAX_SAFE_INTEGER }) : target.get(sql, params);
  },
});
const deps = {
  ...real,
  store: { ...real.store, read },
  // The real ledger (wallet lookups from the SQLite file) with its charge and log taken out.
  ledger: Object.assign(Object.create(real.ledger), {
    charge: () => ({ ok: true, balance: 1_000_000, durable: alreadyDurable }),
    record() {},
    flush: async () => {},
  }),
};
const app = await buildApp(deps);
await app.listen({ port: config.port, host: config.host });
