import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { loadConfig } from '../../src/config.js';
import type { Config } from '../../src/config.js';
import { createDeps } from '../../src/deps.js';
import type { Deps, DepsOverrides } from '../../src/deps.js';
import { buildApp } from '../../src/app.js';
import { InboundMail } from '../../src/features/mail/inbound.service.js';
import type { InboundOptions } from '../../src/features/mail/inbound.service.js';
import type { Clock } from '../../src/lib/time.js';
import { sha256Hex } from '../../src/lib/hash.js';
import { newToken } from '../../src/lib/ids.js';
import { insertWallet } from '../../src/ledger/ledger.js';
import { scratchDatabase } from './stores.js';
import type { ScratchDatabase, StoreKind } from './stores.js';

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private current = Date.parse('2026-06-01T12:00:00.000Z')) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(epochMs: number): void {
    this.current = epochMs;
  }
}

export interface TestApp {
  readonly app: FastifyInstance;
  readonly deps: Deps;
  /** The app's one inbound-mail pipeline, when it has one (INBOUND_SECRET set, or `inbound` asked for). */
  readonly inbound: InboundMail | undefined;
  readonly database: ScratchDatabase;
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
  /** A wallet made directly in the store (POST /token is rate limited per client). */
  createToken(credits?: number): Promise<string>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  readonly env?: Record<string, string>;
  readonly clock?: Clock;
  /** Reuse a database (e.g. a second instance on the same PostgreSQL). */
  readonly database?: ScratchDatabase;
  /** Dependencies to replace (a fake Stripe client, an outbound client with a short limit, …). */
  readonly overrides?: (config: Config) => DepsOverrides;
  /** Build the inbound-mail pipeline with these options (as service.ts does when SMTP or the relay is on); also built when INBOUND_SECRET is set. */
  readonly inbound?: InboundOptions;
  /** Whether e-mail can reach the instance (default true, as with the SMTP listener on). */
  readonly receivesMail?: boolean;
}

export async function startTestApp(kind: StoreKind, options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await scratchDatabase(kind));
  // DNS_SERVERS points at a closed loopback port: no test ever sends a name query off this machine.
  const config: Config = loadConfig({
    DATABASE_URL: database.url,
    LOG_LEVEL: 'silent',
    SMTP_PORT: '0',
    DNS_SERVERS: '127.0.0.1:9',
    // A PostgreSQL pool opens all its connections at start; tests make a call or a few at a time, and hundreds of apps
    // each opening 20 backends would take the suite's time. Tests of concurrency set their own.
    DATABASE_POOL_SIZE: '4',
    ...options.env,
  });
  const deps = createDeps(config, {
    clock: options.clock,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    ...options.overrides?.(config),
  });
  await deps.store.migrate();
  const inbound =
    options.inbound !== undefined || config.inboundSecret !== undefined
      ? await InboundMail.create(deps, options.inbound)
      : undefined;
  // As a deployment with the SMTP listener on (its default), though no listener is started here.
  const app = await buildApp(deps, inbound, { receivesMail: options.receivesMail ?? true });
  return {
    app,
    deps,
    inbound,
    database,
    inject: (injectOptions) => app.inject(injectOptions),
    async createToken(credits = 100) {
      const token = newToken();
      await deps.store.write((tx) => insertWallet(tx, sha256Hex(token), credits, deps.clock.now()));
      return token;
    },
    async close() {
      await app.close();
      await inbound?.close(); // deliveries in flight log through the buffer: close before flushing
      await deps.ledger.flush();
      await deps.outbound.close();
      await deps.store.close();
      if (options.database === undefined) await database.drop();
    },
  };
}

/** The id of the wallet a token opens. */
export async function walletIdOf(deps: Deps, token: string): Promise<number> {
  const wallet = await deps.ledger.walletByHash(sha256Hex(token));
  if (wallet === undefined) throw new Error('no such wallet');
  return wallet.id;
}

/** The stored balance of the wallet a token opens (committed state, as another reader sees it). */
export async function balanceOf(t: TestApp, token: string): Promise<number | undefined> {
  const row = await t.deps.store.read.get<{ balance: number }>('SELECT balance FROM wallets WHERE hash = $1', [
    sha256Hex(token),
  ]);
  return row?.balance;
}
