/**
 * The calls the low-balance suites make on a wallet through an app: its notification settings, spending
 * towards the threshold, and operator credits that re-arm the incident.
 */
import { expect } from 'vitest';
import type { TestApp } from './app.js';
import { sha256Hex } from '../../src/lib/hash.js';

/** PUT /token/settings (1 credit); the settings must be taken. */
export async function putSettings(app: TestApp, token: string, settings: Record<string, unknown>): Promise<void> {
  const res = await app.inject({
    method: 'PUT',
    url: '/token/settings',
    headers: { 'x-token': token, 'content-type': 'application/json' },
    payload: JSON.stringify(settings),
  });
  expect(res.body).toBe('OK');
}

/** Spends `times` credits with GET /token (1 credit each); returns the balance left. */
export async function spendCredits(app: TestApp, token: string, times: number): Promise<number> {
  let balance = NaN;
  for (let i = 0; i < times; i++)
    balance = (await app.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } })).json()
      .wallet as number;
  return balance;
}

/** An operator's credit (POST /manage/wallets/{hash}/credit; the app needs ADMIN_TOKEN); returns the new balance. */
export async function operatorCredit(app: TestApp, adminToken: string, token: string, amount: number): Promise<number> {
  const res = await app.inject({
    method: 'POST',
    url: `/manage/wallets/${sha256Hex(token)}/credit`,
    headers: { 'x-admin-token': adminToken, 'content-type': 'application/json' },
    payload: JSON.stringify({ amount }),
  });
  return res.json().wallet as number;
}
