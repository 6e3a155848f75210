/**
 * The wallet's own record (GET /token, 1 credit): its hash and creation date. Read when asked, then kept for the
 * rest of the session, so opening the Wallet page again costs nothing; signing out forgets it.
 */
import { call } from './api.js';

export interface WalletInfo {
  readonly wallet: number;
  readonly created: string;
  readonly hash: string;
}

let known: WalletInfo | undefined;

export const knownWalletInfo = (): WalletInfo | undefined => known;

export async function readWalletInfo(): Promise<WalletInfo> {
  known = (await call<WalletInfo>('GET', '/token')).data;
  return known;
}

export function forgetWalletInfo(): void {
  known = undefined;
}
