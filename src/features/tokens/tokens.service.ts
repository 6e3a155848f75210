import type { Store } from '../../store/store.js';
import { sha256Hex } from '../../lib/hash.js';
import { newToken } from '../../lib/ids.js';
import { insertWallet } from '../../ledger/ledger.js';

export const NEW_WALLET_CREDITS = 100;
export const TOKEN_CREATION_INTERVAL_MS = 10_000;

export type CreateTokenOutcome =
  { readonly ok: true; readonly token: string } | { readonly ok: false; readonly retryAfterMs: number };

/**
 * Creates a wallet unless this client (`clientKey`: its address, or its /64 for IPv6, see http/client-identity.ts)
 * created one less than 10 s ago. The rate-limit claim and the wallet insert commit together, and the
 * claim lives in the store so every instance shares it.
 */
export async function createToken(store: Store, clientKey: string, now: number): Promise<CreateTokenOutcome> {
  const token = newToken();
  return store.write(async (tx) => {
    const claimed = await tx.all<{ last_at: number }>(
      `INSERT INTO token_creations (client_ip, last_at) VALUES ($1, $2)
       ON CONFLICT (client_ip) DO UPDATE SET last_at = excluded.last_at WHERE token_creations.last_at <= $3
       RETURNING last_at`,
      [clientKey, now, now - TOKEN_CREATION_INTERVAL_MS],
    );
    if (claimed.length === 0) {
      const row = await tx.get<{ last_at: number }>('SELECT last_at FROM token_creations WHERE client_ip = $1', [
        clientKey,
      ]);
      return { ok: false, retryAfterMs: (row?.last_at ?? now) + TOKEN_CREATION_INTERVAL_MS - now };
    }
    await insertWallet(tx, sha256Hex(token), NEW_WALLET_CREDITS, now);
    return { ok: true, token };
  });
}
