/**
 * The wallet's own record (GET /token, 1 credit): its hash and creation date, and its low-balance settings. Read when
 * asked, then kept for the rest of the session (the tab's sessionStorage, beside the token), so opening the Wallet
 * page again, or reloading it, costs nothing; signing out forgets it.
 */
import { call } from './api.js';
import type { OkBody } from './api-types.js';

export type WalletInfo = OkBody<'tokenGet'>;

const WALLET_INFO = 'coinop.walletInfo';
const SETTINGS = 'coinop.lowBalanceSettings';

function kept<T>(name: string): T | undefined {
  const text = sessionStorage.getItem(name);
  return text === null ? undefined : (JSON.parse(text) as T);
}

export const knownWalletInfo = (): WalletInfo | undefined => kept<WalletInfo>(WALLET_INFO);

export function keepWalletInfo(info: WalletInfo): void {
  sessionStorage.setItem(WALLET_INFO, JSON.stringify(info));
}

/** The low-balance settings as last read or saved (GET /token/settings, 1 credit), kept the same way. */
export async function readSettings<T>(fresh: boolean): Promise<T> {
  const known = fresh ? undefined : kept<T>(SETTINGS);
  if (known !== undefined) return known;
  const { data } = await call<T>('GET', '/token/settings');
  rememberSettings(data);
  return data;
}

/** Settings just read (or read back by a save): kept as the last read. */
export function rememberSettings(view: unknown): void {
  sessionStorage.setItem(SETTINGS, JSON.stringify(view));
}

export function forgetWalletInfo(): void {
  sessionStorage.removeItem(WALLET_INFO);
  sessionStorage.removeItem(SETTINGS);
}
