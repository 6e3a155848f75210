import { expect } from 'vitest';
import type { TestApp } from '../../helpers/app.js';

/** Shared by the operator API tests. */
export const ADMIN_TOKEN = 'operator-secret-0123456789';
export const PLAIN = 'text/plain; charset=utf-8';
export const UNKNOWN_HASH = 'f'.repeat(64);

/** Operator calls; `null` sends no x-admin-token header at all. */
export function operator(t: TestApp, adminToken: string | null = ADMIN_TOKEN) {
  const headers = (extra: Record<string, string> = {}) => ({ ...(adminToken === null ? {} : { 'x-admin-token': adminToken }), ...extra });
  const post = (url: string, body: unknown) =>
    t.inject({ method: 'POST', url, headers: headers({ 'content-type': 'application/json' }), payload: JSON.stringify(body) });
  return {
    read: (hash: string) => t.inject({ method: 'GET', url: `/manage/wallets/${hash}`, headers: headers() }),
    credit: (hash: string, body: unknown) => post(`/manage/wallets/${hash}/credit`, body),
    debit: (hash: string, body: unknown) => post(`/manage/wallets/${hash}/debit`, body),
    remove: (hash: string) => t.inject({ method: 'DELETE', url: `/manage/wallets/${hash}`, headers: headers() }),
    list: (query = '') => t.inject({ method: 'GET', url: `/manage/wallets${query}`, headers: headers() }),
    logs: (hash: string, query = '') => t.inject({ method: 'GET', url: `/manage/wallets/${hash}/logs${query}`, headers: headers() }),
    stats: (query = '') => t.inject({ method: 'GET', url: `/manage/stats${query}`, headers: headers() }),
  };
}

export function expectPlain(res: { statusCode: number; body: string; headers: Record<string, unknown> }, status: number, body: string) {
  expect([res.statusCode, res.body, res.headers['content-type']]).toEqual([status, body, PLAIN]);
}
