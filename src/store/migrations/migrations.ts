/**
 * Append-only schema history. Never edit a released entry; add a new one.
 * Each entry has SQL per dialect (identical where the dialects agree).
 */
export interface Migration {
  readonly id: number;
  readonly name: string;
  readonly sqlite: string;
  readonly postgres: string;
}

const coreTables = (dialect: 'sqlite' | 'postgres'): string => {
  const walletId =
    dialect === 'sqlite' ? 'INTEGER PRIMARY KEY AUTOINCREMENT' : 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY';
  const logSeq =
    dialect === 'sqlite' ? 'INTEGER PRIMARY KEY AUTOINCREMENT' : 'BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY';
  return `
CREATE TABLE wallets (
  id ${walletId},
  hash TEXT NOT NULL UNIQUE,
  balance BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  last_used_at BIGINT NOT NULL,
  lb_threshold BIGINT NOT NULL DEFAULT 0,
  lb_webhook TEXT,
  lb_email TEXT,
  lb_armed INTEGER NOT NULL DEFAULT 1,
  lb_pending INTEGER NOT NULL DEFAULT 0,
  lb_pending_until BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX wallets_last_used ON wallets (last_used_at);
CREATE INDEX wallets_lb_pending ON wallets (lb_pending) WHERE lb_pending = 1;

CREATE TABLE kv (
  wallet_id BIGINT NOT NULL,
  bucket TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  expires_at BIGINT NOT NULL,
  PRIMARY KEY (wallet_id, bucket, key)
);
CREATE INDEX kv_expires ON kv (expires_at);

CREATE TABLE logs (
  seq ${logSeq},
  id TEXT NOT NULL UNIQUE,
  wallet_id BIGINT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  status_code INTEGER NOT NULL,
  response_time_ms INTEGER NOT NULL,
  error TEXT,
  created_at BIGINT NOT NULL,
  cost BIGINT NOT NULL,
  balance BIGINT NOT NULL
);
CREATE INDEX logs_wallet_time ON logs (wallet_id, created_at);
CREATE INDEX logs_wallet_endpoint_time ON logs (wallet_id, endpoint, created_at);
CREATE INDEX logs_created ON logs (created_at);

CREATE TABLE token_creations (
  client_ip TEXT PRIMARY KEY,
  last_at BIGINT NOT NULL
);

CREATE TABLE leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  until_at BIGINT NOT NULL
);
`;
};

/** Webhooks of both modes. `mailbox` is set in mailbox mode only; the schedule columns in scheduled mode only. */
const webhooks = `
CREATE TABLE webhooks (
  wallet_id BIGINT NOT NULL,
  webhook_id TEXT NOT NULL,
  url TEXT NOT NULL,
  headers TEXT NOT NULL,
  format TEXT,
  template TEXT,
  options TEXT,
  include_attachments INTEGER NOT NULL DEFAULT 1,
  mailbox TEXT UNIQUE,
  signing_secret TEXT NOT NULL,
  cron TEXT,
  timezone TEXT,
  active INTEGER NOT NULL DEFAULT 0,
  next_run_at BIGINT,
  last_run_at BIGINT,
  last_status TEXT,
  last_error TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (wallet_id, webhook_id)
);
CREATE INDEX webhooks_due ON webhooks (next_run_at) WHERE active = 1;
`;

/**
 * The low-balance notifier looks every second for claims (lb_pending = 2) whose sender died before
 * finishing; without this index that look is a scan of every wallet.
 */
const staleLowBalanceClaims = `
CREATE INDEX wallets_lb_claimed ON wallets (lb_pending_until) WHERE lb_pending = 2;
`;

/**
 * Stripe checkout sessions already credited: the primary key makes a recharge happen once per session,
 * however often Stripe delivers (or anyone replays) its events. Kept after a wallet is deleted, as the record of the payment.
 */
const stripeCredits = `
CREATE TABLE stripe_credits (
  session_id TEXT PRIMARY KEY,
  event_id TEXT NOT NULL,
  wallet_id BIGINT NOT NULL,
  credits BIGINT NOT NULL,
  created_at BIGINT NOT NULL
);
`;

/**
 * Inbound e-mail (docs/contract.md#inbound-e-mail). `mail_attachments`: attachment bytes behind the signed download URLs,
 * kept until `expires_at` (1 h) and then swept. `inbound_outbox`: a routed message recorded in the
 * same unit as its charge, so the SMTP 250 is given only once the delivery is promised in the store;
 * deleted after the delivery attempt, taken over by any instance when `claim_until` passes (crash).
 * `service_secrets`: random keys created once and shared by every instance (the HMAC key of the
 * download URLs).
 */
const inboundMail = (dialect: 'sqlite' | 'postgres'): string => `
CREATE TABLE mail_attachments (
  id TEXT PRIMARY KEY,
  wallet_id BIGINT NOT NULL,
  filename TEXT,
  content_type TEXT NOT NULL,
  size BIGINT NOT NULL,
  content ${dialect === 'sqlite' ? 'BLOB' : 'BYTEA'} NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX mail_attachments_expires ON mail_attachments (expires_at);
CREATE INDEX mail_attachments_wallet ON mail_attachments (wallet_id);

CREATE TABLE inbound_outbox (
  id TEXT PRIMARY KEY,
  wallet_id BIGINT NOT NULL,
  webhook_id TEXT NOT NULL,
  body TEXT NOT NULL,
  cost BIGINT NOT NULL,
  balance BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  claim_until BIGINT NOT NULL
);
CREATE INDEX inbound_outbox_claim ON inbound_outbox (claim_until);
CREATE INDEX inbound_outbox_wallet ON inbound_outbox (wallet_id);

CREATE TABLE service_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
`;

/**
 * Log rows are the hot path's one unavoidable insert, so they keep only the index reads need.
 * Ids are 119 random bits and never looked up: their UNIQUE index cost the most of any log insert
 * (a random B-tree position per row). The newest entries of a wallet come from (wallet, category,
 * time), one range per category when no category is asked; the sweeper walks the oldest rows by seq.
 * SQLite cannot drop a table constraint: rebuild.
 */
const logsWithOnlyTheReadIndex = {
  sqlite: `
CREATE TABLE logs_rebuilt (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL,
  wallet_id BIGINT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  status_code INTEGER NOT NULL,
  response_time_ms INTEGER NOT NULL,
  error TEXT,
  created_at BIGINT NOT NULL,
  cost BIGINT NOT NULL,
  balance BIGINT NOT NULL
);
INSERT INTO logs_rebuilt SELECT seq, id, wallet_id, method, path, endpoint, status_code, response_time_ms, error, created_at, cost, balance FROM logs;
DROP TABLE logs;
ALTER TABLE logs_rebuilt RENAME TO logs;
CREATE INDEX logs_wallet_endpoint_time ON logs (wallet_id, endpoint, created_at);
`,
  postgres: `
ALTER TABLE logs DROP CONSTRAINT IF EXISTS logs_id_key;
DROP INDEX IF EXISTS logs_wallet_time;
DROP INDEX IF EXISTS logs_created;
`,
};

/**
 * A value may hold any Unicode code point (docs/reference.md#key-value-store), U+0000 included, which PostgreSQL TEXT cannot
 * store: values become bytes (UTF-8) there. SQLite TEXT holds it as it is.
 */
const kvValuesAsBytes = {
  sqlite: '',
  postgres: `ALTER TABLE kv ALTER COLUMN value TYPE BYTEA USING convert_to(value, 'UTF8');`,
};

/**
 * Low-balance notifications are rate-limited per wallet (one an hour, across instances): the claim needs
 * `lb_last_sent_at` an hour old, so an incident held back waits in lb_pending = 1 until then. The pending
 * index stays as it is (held-back incidents are few: one per wallet at most), so instances not yet
 * upgraded keep their plan.
 */
const lowBalanceRateLimit = `
ALTER TABLE wallets ADD COLUMN lb_last_sent_at BIGINT NOT NULL DEFAULT 0;
`;

/**
 * Signing-key rotation with overlap (docs/reference.md#webhooks-schedules-inbound-e-mail): the secret a rotation replaced and when, so deliveries carry
 * its signature beside the new one for 24 hours. Never shown in an answer.
 */
const previousSigningSecret = `
ALTER TABLE webhooks ADD COLUMN previous_signing_secret TEXT;
ALTER TABLE webhooks ADD COLUMN signing_secret_rotated_at BIGINT;
`;

/**
 * Inbound mail already routed to a mailbox, by a hash of its Message-ID (docs/reference.md#inbound-e-mail): the primary key is the
 * claim that keeps a resent message from being delivered and charged again, across instances. Rows older
 * than 24 h no longer count and are swept.
 */
const seenInboundMessages = `
CREATE TABLE inbound_seen_messages (
  mailbox TEXT NOT NULL,
  message_hash TEXT NOT NULL,
  seen_at BIGINT NOT NULL,
  PRIMARY KEY (mailbox, message_hash)
);
CREATE INDEX inbound_seen_messages_seen ON inbound_seen_messages (seen_at);
`;

/**
 * Delivery history (docs/reference.md#delivery-history): one `deliveries` row per outbound webhook call, its id the Standard Webhooks
 * `webhook-id` (stable across its attempts), with the exact JSON body sent (NULL when over 1 MiB), and one
 * `delivery_attempts` row per attempt (the first 1 KiB of the receiver's answer). `next_attempt_at` stays NULL
 * until retries exist. Both kept 7 days like the call log; a log row names its delivery in `logs.delivery_id`.
 */
const deliveryHistory = `
CREATE TABLE deliveries (
  id TEXT PRIMARY KEY,
  wallet_id BIGINT NOT NULL,
  webhook_id TEXT NOT NULL,
  trigger TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  last_attempt_at BIGINT,
  next_attempt_at BIGINT,
  last_status_code INTEGER,
  last_error TEXT,
  url TEXT NOT NULL,
  cost BIGINT NOT NULL,
  body TEXT
);
CREATE INDEX deliveries_webhook_time ON deliveries (wallet_id, webhook_id, created_at);
CREATE INDEX deliveries_created ON deliveries (created_at);

CREATE TABLE delivery_attempts (
  delivery_id TEXT NOT NULL,
  attempt INTEGER NOT NULL,
  at BIGINT NOT NULL,
  url TEXT NOT NULL,
  status_code INTEGER,
  ms INTEGER NOT NULL,
  error TEXT,
  response_body TEXT,
  will_retry INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (delivery_id, attempt)
);
CREATE INDEX delivery_attempts_at ON delivery_attempts (at);

ALTER TABLE logs ADD COLUMN delivery_id TEXT;
`;

/**
 * Opt-in delivery retries (docs/reference.md#delivery-retries): a webhook's retry policy (`retry_attempts` retries after the first attempt;
 * 0 is the contract's single attempt), each delivery's attempt budget fixed when it is made, which attempts were
 * redeliveries, and the index the retry worker claims due deliveries by.
 */
const deliveryRetries = `
ALTER TABLE webhooks ADD COLUMN retry_attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE deliveries ADD COLUMN max_attempts INTEGER NOT NULL DEFAULT 1;
ALTER TABLE delivery_attempts ADD COLUMN trigger TEXT;
CREATE INDEX deliveries_pending ON deliveries (next_attempt_at) WHERE status = 'pending';
`;

/**
 * Key listing (GET /kv/{bucket}) pages in byte order through the primary key index: on PostgreSQL the key column
 * compares by bytes whatever the database's collation (the index is rebuilt); SQLite's BINARY already does.
 */
const kvKeysInByteOrder = {
  sqlite: '-- SQLite compares TEXT by bytes (BINARY) already.',
  postgres: 'ALTER TABLE kv ALTER COLUMN key TYPE TEXT COLLATE "C";',
};

/**
 * The operator API beyond the contract (docs/reference.md#operator-api). `logs.note`: the reason an operator gave for a credit or debit, on that
 * call's log row (NULL on every other row, so the hot path writes no more). `spend_per_day`: credits spent per UTC
 * day (its start, epoch ms), added up from each committed log batch, so spending over 90 days is read from 90 rows
 * while the log itself keeps 7. Wallet listing pages newest first by (created_at, id) and (last_used_at, id):
 * SQLite's indexes end with the rowid (the id) already; PostgreSQL's need the id. Balance gets no index on purpose:
 * every charge changes it, and on PostgreSQL an indexed balance would cost every charge a write to each index.
 */
const operatorApi = (dialect: 'sqlite' | 'postgres'): string => `
ALTER TABLE logs ADD COLUMN note TEXT;
CREATE TABLE spend_per_day (
  day BIGINT PRIMARY KEY,
  credits BIGINT NOT NULL
);
${
  dialect === 'sqlite'
    ? 'CREATE INDEX wallets_created ON wallets (created_at);'
    : `CREATE INDEX wallets_created_id ON wallets (created_at, id);
CREATE INDEX wallets_last_used_id ON wallets (last_used_at, id);
DROP INDEX wallets_last_used;`
}
`;

/**
 * Spend per hour (GET /token/spend, docs/reference.md#call-logs): credits and calls per wallet, UTC hour (its start, epoch ms) and
 * log category, added up from each log batch in the batch's own unit (src/ledger/spend-aggregate.ts). Rows older
 * than 8 days are swept by `hour`; a deleted wallet's go with it (WALLET_DATA_TABLES).
 */
const spendHourly = `
CREATE TABLE spend_hourly (
  wallet_id BIGINT NOT NULL,
  hour BIGINT NOT NULL,
  endpoint TEXT NOT NULL,
  credits BIGINT NOT NULL,
  calls BIGINT NOT NULL,
  PRIMARY KEY (wallet_id, hour, endpoint)
);
CREATE INDEX spend_hourly_hour ON spend_hourly (hour);
`;

/** Bucket listing (GET /kv, docs/reference.md#key-value-store) pages in byte order through the primary key index, as key listing does (14). */
const kvBucketsInByteOrder = {
  sqlite: '-- SQLite compares TEXT by bytes (BINARY) already.',
  postgres: 'ALTER TABLE kv ALTER COLUMN bucket TYPE TEXT COLLATE "C";',
};

/**
 * A page of the call log reads each category's range newest first, ties on time in order of writing (seq): the read
 * index must end with seq so that its order is the page's and a page stops after its n + 1 rows. SQLite's indexes
 * end with the rowid (seq) already. On PostgreSQL, without seq the planner sorts each category's whole range
 * whenever its statistics are stale (after a burst of writes): measured, 20 ms for a 100-entry page of a
 * 54,000-entry log. The rebuild holds the log table locked while it runs (seconds per million entries).
 */
const logsReadIndexWithSeq = {
  sqlite: '-- SQLite indexes end with the rowid (seq) already.',
  postgres: `
CREATE INDEX logs_wallet_endpoint_time_seq ON logs (wallet_id, endpoint, created_at, seq);
DROP INDEX logs_wallet_endpoint_time;
ALTER INDEX logs_wallet_endpoint_time_seq RENAME TO logs_wallet_endpoint_time;
`,
};

/**
 * A webhook's delivery history filtered on its state reads an index range (newest first, ties by id) instead of every
 * delivery of the week; unfiltered, it merges the three states' ranges as the call log merges its categories'. The
 * index replaces (wallet, webhook, time), whose every use it serves (a wallet's deliveries, on wallet deletion, too).
 * Building it holds the deliveries table locked while it runs (about a second per million deliveries).
 */
const deliveriesByState = `
CREATE INDEX deliveries_webhook_status_time ON deliveries (wallet_id, webhook_id, status, created_at, id);
DROP INDEX deliveries_webhook_time;
`;

/**
 * Bounded delivery retries: each delivery's kept body size in bytes, so a wallet's bytes pending retry are summed
 * without reading the bodies, and an index on a wallet's pending deliveries for that sum and the fair claim.
 */
const retryBudget = `
ALTER TABLE deliveries ADD COLUMN body_bytes BIGINT NOT NULL DEFAULT 0;
UPDATE deliveries SET body_bytes = octet_length(body) WHERE status = 'pending' AND body IS NOT NULL;
CREATE INDEX deliveries_pending_wallet ON deliveries (wallet_id, next_attempt_at) WHERE status = 'pending';
`;

/** What differs between the engines in migration 21. */
const LOG_BATCH_DIALECTS = {
  sqlite: {
    seq: 'INTEGER PRIMARY KEY AUTOINCREMENT',
    jsonArray: 'json_array',
    asText: '',
    resumeSeq: '',
    // SQLite's indexes end with the rowid (seq) already.
    indexEnd: '',
    elements: 'json_each(b.entries) AS e',
    index: 'e.key',
    number: (i: number) => `e.value ->> ${i}`,
  },
  postgres: {
    seq: 'BIGSERIAL PRIMARY KEY',
    jsonArray: 'json_build_array',
    asText: '::text',
    resumeSeq:
      "SELECT setval(pg_get_serial_sequence('log_batches', 'seq'), GREATEST((SELECT MAX(seq) FROM log_batches), 1));",
    indexEnd: ', seq',
    elements: 'jsonb_array_elements(b.entries::jsonb) WITH ORDINALITY AS e(value, n)',
    index: 'e.n - 1',
    number: (i: number, type: string) => `(e.value ->> ${i})::${type}`,
  },
};

/**
 * The call log as one row per wallet, category and written batch, its entries a JSON array (src/ledger/log-batches.ts):
 * a call no longer costs an index entry. A batch is found by (wallet, category, its newest entry's time, seq); the
 * sweeper walks batches by seq. Each existing entry becomes a batch of one, keeping its seq: a cursor made before the
 * upgrade still pages on in time, ties within its own millisecond aside. The `logs` view shows the entries as rows
 * (an operator's queries, the tests), its seq each entry's place: batch seq × 128 + index.
 */
function logBatches(kind: keyof typeof LOG_BATCH_DIALECTS): string {
  const d = LOG_BATCH_DIALECTS[kind];
  const text = (i: number) => `e.value ->> ${i}`;
  return `
CREATE TABLE log_batches (
  seq ${d.seq},
  wallet_id BIGINT NOT NULL,
  endpoint TEXT NOT NULL,
  first_at BIGINT NOT NULL,
  last_at BIGINT NOT NULL,
  entry_count INTEGER NOT NULL,
  entries TEXT NOT NULL
);
INSERT INTO log_batches (seq, wallet_id, endpoint, first_at, last_at, entry_count, entries)
SELECT seq, wallet_id, endpoint, created_at, created_at, 1,
  ${d.jsonArray}(${d.jsonArray}(id, method, path, status_code, response_time_ms, error, created_at, cost, balance, delivery_id, note))${d.asText}
FROM logs ORDER BY seq;
${d.resumeSeq}
DROP TABLE logs;
CREATE INDEX log_batches_wallet_endpoint_last ON log_batches (wallet_id, endpoint, last_at${d.indexEnd});
CREATE VIEW logs AS
SELECT b.seq * 128 + ${d.index} AS seq,
  ${text(0)} AS id, b.wallet_id, ${text(1)} AS method, ${text(2)} AS path, b.endpoint,
  ${d.number(3, 'INTEGER')} AS status_code, ${d.number(4, 'INTEGER')} AS response_time_ms, ${text(5)} AS error,
  ${d.number(6, 'BIGINT')} AS created_at, ${d.number(7, 'BIGINT')} AS cost, ${d.number(8, 'BIGINT')} AS balance,
  ${text(9)} AS delivery_id, ${text(10)} AS note
FROM log_batches AS b, ${d.elements};
`;
}

/**
 * PostgreSQL compresses a value it stores out of line with pglz unless told otherwise; a call-log batch (100 entries,
 * ~11 KB of JSON) costs the server ~80 µs of pglz and ~30 µs of lz4 at about the same size (bench/RESULTS.md), and one
 * is written per 100 calls. A server built without lz4 (or older than 14) keeps pglz: the migration is then a no-op.
 * SQLite stores the text as it is.
 */
const logBatchesLz4 = {
  sqlite: '-- PostgreSQL only: SQLite does not compress what it stores.',
  postgres: `
DO $$
BEGIN
  EXECUTE 'ALTER TABLE log_batches ALTER COLUMN entries SET COMPRESSION lz4';
EXCEPTION WHEN feature_not_supported OR syntax_error THEN
  NULL;
END
$$;
`,
};

export const migrations: readonly Migration[] = [
  {
    id: 1,
    name: 'core: wallets, kv, logs, rate limits, leases',
    sqlite: coreTables('sqlite'),
    postgres: coreTables('postgres'),
  },
  { id: 2, name: 'webhooks', sqlite: webhooks, postgres: webhooks },
  {
    id: 4,
    name: 'low-balance: stale notification claims',
    sqlite: staleLowBalanceClaims,
    postgres: staleLowBalanceClaims,
  },
  { id: 5, name: 'billing: credited Stripe checkout sessions', sqlite: stripeCredits, postgres: stripeCredits },
  {
    id: 6,
    name: 'inbound mail: attachments, outbox, service secrets',
    sqlite: inboundMail('sqlite'),
    postgres: inboundMail('postgres'),
  },
  { id: 7, name: 'logs: only the index reads need', ...logsWithOnlyTheReadIndex },
  { id: 8, name: 'kv: values as bytes on PostgreSQL', ...kvValuesAsBytes },
  {
    id: 9,
    name: 'low-balance: one notification per wallet per hour',
    sqlite: lowBalanceRateLimit,
    postgres: lowBalanceRateLimit,
  },
  {
    id: 10,
    name: 'webhooks: previous signing secret kept for the rotation overlap',
    sqlite: previousSigningSecret,
    postgres: previousSigningSecret,
  },
  {
    id: 11,
    name: 'inbound mail: Message-IDs seen per mailbox',
    sqlite: seenInboundMessages,
    postgres: seenInboundMessages,
  },
  { id: 12, name: 'deliveries: attempt history', sqlite: deliveryHistory, postgres: deliveryHistory },
  { id: 13, name: 'deliveries: opt-in retries and redeliveries', sqlite: deliveryRetries, postgres: deliveryRetries },
  { id: 14, name: 'kv: keys compared by bytes (listing order)', ...kvKeysInByteOrder },
  {
    id: 15,
    name: 'operator API: credit reasons, spend per day, wallet listing order',
    sqlite: operatorApi('sqlite'),
    postgres: operatorApi('postgres'),
  },
  { id: 16, name: 'logs: spend per wallet, hour and category', sqlite: spendHourly, postgres: spendHourly },
  { id: 17, name: 'kv: buckets compared by bytes (listing order)', ...kvBucketsInByteOrder },
  { id: 18, name: 'logs: the read index ends with the order of writing', ...logsReadIndexWithSeq },
  { id: 19, name: "deliveries: a webhook's history by state", sqlite: deliveriesByState, postgres: deliveriesByState },
  { id: 20, name: 'deliveries: bytes pending retry per wallet', sqlite: retryBudget, postgres: retryBudget },
  {
    id: 21,
    name: 'logs: one row per wallet, category and batch',
    sqlite: logBatches('sqlite'),
    postgres: logBatches('postgres'),
  },
  { id: 22, name: 'logs: batches compressed with lz4 where the server has it', ...logBatchesLz4 },
];
