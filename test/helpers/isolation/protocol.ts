/**
 * What the isolation scenario (scenario.ts) and its hostile tenant (hostile-tenant.ts, a process of its own)
 * tell each other over the child's IPC channel, and the shapes both sides share.
 */
import type { TestCertificates } from '../https-receiver.js';

/**
 * How the hostile wallet spends its connections: each kind gets a pool of its own, all from one address, so the
 * wallet never holds more than the sum open at once. Every connection loops its call for the whole attack.
 */
export interface HostileMix {
  /** Connections looping `POST /webhook/{id}/test` to a receiver that never answers (a 10 s delivery each, 8 retries). */
  readonly testConnections: number;
  /** Connections looping `POST /url-to-metadata` of a page that answers after `slowPageMs`. */
  readonly metadataConnections: number;
  /** Connections looping one MCP JSON-RPC batch of `mcpBatch` tool calls at a time. */
  readonly mcpConnections: number;
  readonly mcpBatch: { readonly webhookTests: number; readonly slowMetadata: number; readonly kvWrites: number };
  /** Connections looping paid `POST /kv` writes of 1000 characters, back to back. */
  readonly kvConnections: number;
  readonly slowPageMs: number;
}

/**
 * The requirement's hostile wallet: about 70 connections, 64 webhook tests in flight at once (60 direct, 4 inside MCP
 * batches). A batch is the largest POST /mcp takes (20 messages; its calls run one after another, so one test each).
 */
export const HOSTILE_MIX: HostileMix = {
  testConnections: 60,
  metadataConnections: 8,
  mcpConnections: 4,
  mcpBatch: { webhookTests: 1, slowMetadata: 1, kvWrites: 18 },
  kvConnections: 4,
  slowPageMs: 9_000,
};

export const hostileConnections = (mix: HostileMix): number =>
  mix.testConnections + mix.metadataConnections + mix.mcpConnections + mix.kvConnections;
export const concurrentHostileTests = (mix: HostileMix): number =>
  mix.testConnections + mix.mcpConnections * mix.mcpBatch.webhookTests;

/** Answers the hostile wallet got, by kind and then by HTTP status (`error`: no answer, the client gave up). */
export type StatusTally = Record<string, number>;

export interface HostileReport {
  readonly tests: StatusTally;
  readonly metadata: StatusTally;
  readonly mcpBatches: StatusTally;
  readonly kvWrites: StatusTally;
  /** Requests the never-answering receiver got: first attempts and retries. */
  readonly webhookRequests: number;
  /** Of those, retries (a webhook-id seen before). */
  readonly webhookRetries: number;
  readonly slowPageRequests: number;
  readonly balanceAfter: number | undefined;
}

export type ToHostile =
  | {
      readonly type: 'setup';
      readonly serviceUrl: string;
      readonly adminToken: string;
      readonly certificates: TestCertificates;
      /** The address the hostile wallet connects from (the token-creation limit counts per address). */
      readonly localAddress: string;
      readonly mix: HostileMix;
      readonly credits: number;
    }
  /** Flood for `durationMs`, then report; the peers stay up (the service's retries keep hanging on them) until the process is killed. */
  | { readonly type: 'attack'; readonly durationMs: number };

export type FromHostile =
  | { readonly type: 'ready' }
  /** The first retry of a hostile delivery reached the receiver: the retries are in flight. */
  | { readonly type: 'retries-in-flight' }
  | { readonly type: 'done'; readonly report: HostileReport }
  | { readonly type: 'failed'; readonly error: string };
