import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';

/** Logs an operator call in the log of the one wallet it touched, with the reason it was given (if any). */
export type Audit = (request: FastifyRequest, walletId: number, statusCode: number, balance: number, reason?: string) => void;

export function auditTo(deps: Deps): Audit {
  return (request, walletId, statusCode, balance, reason) =>
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
    });
}
