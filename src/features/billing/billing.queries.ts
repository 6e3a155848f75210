import type { Deps } from '../../deps.js';

export interface StripeCredit {
  readonly sessionId: string;
  readonly eventId: string;
  readonly walletId: number;
  readonly credits: number;
  readonly at: number;
}

export type CreditOutcome =
  | { readonly credited: true; readonly balance: number }
  | { readonly credited: false; readonly reason: 'already-credited' | 'wallet-gone' };

class WalletGone extends Error {}

/**
 * Records the session and credits the wallet in one transaction: a replayed or concurrent event finds the
 * session already recorded and credits nothing; a wallet deleted meanwhile rolls the record back.
 */
export async function creditStripeSession(
  deps: Pick<Deps, 'store' | 'ledger'>,
  credit: StripeCredit,
): Promise<CreditOutcome> {
  try {
    return await deps.store.write(async (tx): Promise<CreditOutcome> => {
      const recorded = await tx.run(
        'INSERT INTO stripe_credits (session_id, event_id, wallet_id, credits, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (session_id) DO NOTHING',
        [credit.sessionId, credit.eventId, credit.walletId, credit.credits, credit.at],
      );
      if (recorded.changes === 0) return { credited: false, reason: 'already-credited' };
      const balance = await deps.ledger.creditIn(tx, credit.walletId, credit.credits);
      if (balance === undefined) throw new WalletGone();
      return { credited: true, balance };
    });
  } catch (error) {
    if (error instanceof WalletGone) return { credited: false, reason: 'wallet-gone' };
    throw error;
  }
}
