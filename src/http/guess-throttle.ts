import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { errors } from '../errors.js';
import { sha256Hex } from '../lib/hash.js';
import type { Clock } from '../lib/time.js';
import { MINUTE } from '../lib/time.js';
import { GenerationalMap } from '../lib/generational-map.js';

export interface GuessRule {
  /** Wrong guesses a client may make within `windowMs` of its first; the last of them locks it out. */
  readonly failures: number;
  /** The counting window, and how long a locked-out client is refused every attempt. */
  readonly windowMs: number;
  /** Clients tracked at once; beyond, a client not yet tracked is refused until one is forgotten. */
  readonly maxClients: number;
}

/** 10 wrong guesses a minute per client (of any one secret); about 8 MB at most, and only while that many clients are guessing. */
export const OPERATOR_GUESSES: GuessRule = { failures: 10, windowMs: MINUTE, maxClients: 100_000 };

interface Tally {
  failures: number;
  /** When the window (or the lock-out) ends and the tally is forgotten. */
  until: number;
}

/**
 * Wrong guesses of a secret per client key (http/client-identity.ts), in memory, per instance:
 * after `failures` within a window, every attempt of that client, a right one included, is refused until a window has
 * passed since the last counted failure. A right guess forgets the client's tally.
 */
export class GuessThrottle {
  /** A tally not written for a window has ended: the map forgets it (O(1), no pass over the tallies). */
  private readonly tallies: GenerationalMap<string, Tally>;

  constructor(
    private readonly clock: Clock,
    private readonly rule: GuessRule = OPERATOR_GUESSES,
  ) {
    this.tallies = new GenerationalMap(clock, rule.windowMs);
  }

  /** How many ms `client` must wait before it may guess again; 0 when it may now. */
  wait(client: string): number {
    const now = this.clock.now();
    const tally = this.current(client, now);
    if (tally === undefined) {
      // No room to count this client's guesses: it waits for the map to forget ended tallies rather than guess uncounted.
      return this.tallies.size < this.rule.maxClients ? 0 : this.tallies.untilTurn();
    }
    return tally.failures >= this.rule.failures ? Math.min(this.rule.windowMs, Math.max(1, tally.until - now)) : 0;
  }

  /** Counts a wrong guess (after `wait` said 0); true when it is the one that locks the client out. */
  failed(client: string): boolean {
    const now = this.clock.now();
    const tally = this.current(client, now);
    if (tally === undefined) {
      this.tallies.set(client, { failures: 1, until: now + this.rule.windowMs });
      return this.rule.failures <= 1;
    }
    tally.failures++;
    const locks = tally.failures >= this.rule.failures;
    // Locked out for a whole window from now.
    if (locks) tally.until = now + this.rule.windowMs;
    this.tallies.set(client, tally); // written now: kept a window from now
    return locks;
  }

  /** A right guess: the client's wrong ones are forgotten. */
  succeeded(client: string): void {
    this.tallies.delete(client);
  }

  /** The client's tally while its window lasts (one ended but not yet forgotten is dropped here). */
  private current(client: string, now: number): Tally | undefined {
    const tally = this.tallies.get(client);
    if (tally === undefined || tally.until > now) return tally;
    this.tallies.delete(client);
    return undefined;
  }
}

/**
 * The check of one shared secret (the operator token, METRICS_TOKEN, INBOUND_SECRET), compared as SHA-256 digests so
 * it takes the same time whatever the guess, and throttled per client: a locked-out client is answered 429 before its
 * guess is judged, and the guess that locks it out is logged as a warning naming the client, never what it sent.
 */
export function secretGate(clock: Clock, secretName: string, secret: string, rule: GuessRule = OPERATOR_GUESSES) {
  const expected = Buffer.from(sha256Hex(secret), 'hex');
  const guesses = new GuessThrottle(clock, rule);
  /** True when `given` is the secret; throws 429 while the client is locked out. */
  return (request: FastifyRequest, given: string | undefined): boolean => {
    const client = request.client.key;
    const wait = guesses.wait(client);
    if (wait > 0) throw errors.tooManyRequests(wait / 1000);
    if (given !== undefined && timingSafeEqual(Buffer.from(sha256Hex(given), 'hex'), expected)) {
      guesses.succeeded(client);
      return true;
    }
    if (guesses.failed(client)) {
      request.log.warn(
        { client, failures: rule.failures, lockedForSeconds: rule.windowMs / 1000 },
        `${secretName}: too many wrong guesses`,
      );
    }
    return false;
  };
}
