/**
 * The wallet's own record (GET /token, 1 credit): its hash and creation date, and its low-balance settings. Read when
 * asked, then kept for the rest of the session, so opening the Wallet page again costs nothing; signing out forgets it.
 */
import { call } from './api.js';
import type { OkBody } from './api-types.js';

export type WalletInfo = OkBody<'tokenGet'>;

let known: WalletInfo | undefined;

export const knownWalletInfo = (): WalletInfo | undefined => known;

export async function readWalletInfo(): Promise<WalletInfo> {
  known = (await call<WalletInfo>('GET', '/token')).data;
  return known;
}

/** The low-balance settings as last read or saved (GET /token/settings, 1 credit), kept the same way. */
const settings: { view?: unknown } = {};

export async function readSettings<T>(fresh: boolean): Promise<T> {
  if (fresh || settings.view === undefined) settings.view = (await call<T>('GET', '/token/settings')).data;
  return settings.view as T;
}

/** Settings just read back by a save: kept as the last read. */
export function rememberSettings(view: unknown): void {
  settings.view = view;
}

export function forgetWalletInfo(): void {
  known = undefined;
  settings.view = undefined;
}
