import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';

/** What an operator call's log row says: the one wallet it touched, the answer's status, the balance after and the reason given (if any). */
export interface AuditEntry {
  readonly walletId: number;
  readonly statusCode: number;
  readonly balance: number;
  readonly reason?: string | undefined;
  /** A refusal's message (the log's `error`, absent on success). */
  readonly error?: string | undefined;
}

/** Logs an operator call in the log of the one wallet it touched, with the reason it was given (if any). */
export type Audit = (request: FastifyRequest, entry: AuditEntry) => void;

export function auditTo(deps: Deps): Audit {
  return (request, { walletId, statusCode, balance, reason, error }) =>
    // Outside the free-row budget: the operator, not the wallet's holder, decides how many there are.
    deps.ledger.recordAlways({
      walletId,
      method: request.method,
      path: request.url,
      endpoint: 'manage',
      statusCode,
      responseTimeMs: 0,
      cost: 0,
      balance,
      note: reason,
      ...(error === undefined ? {} : { error }),
    });
}
