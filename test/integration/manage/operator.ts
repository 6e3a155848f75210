import { expect } from 'vitest';
import type { TestApp } from '../../helpers/app.js';

/** Shared by the operator API tests. */
export const ADMIN_TOKEN = 'operator-secret-0123456789';
export const PLAIN = 'text/plain; charset=utf-8';
export const UNKNOWN_HASH = 'f'.repeat(64);

/** Operator calls; `null` sends no x-admin-token header at all; `remoteAddress`: the client's (wrong tokens are throttled per client). */
export function operator(t: TestApp, adminToken: string | null = ADMIN_TOKEN, remoteAddress = '127.0.0.1') {
  const headers = (extra: Record<string, string> = {}) => ({
    ...(adminToken === null ? {} : { 'x-admin-token': adminToken }),
    ...extra,
  });
  const post = (url: string, body: unknown) =>
    t.inject({
      method: 'POST',
      url,
      headers: headers({ 'content-type': 'application/json' }),
      payload: JSON.stringify(body),
      remoteAddress,
    });
  const get = (url: string) => t.inject({ method: 'GET', url, headers: headers(), remoteAddress });
  return {
    read: (hash: string) => get(`/manage/wallets/${hash}`),
    credit: (hash: string, body: unknown) => post(`/manage/wallets/${hash}/credit`, body),
    debit: (hash: string, body: unknown) => post(`/manage/wallets/${hash}/debit`, body),
    remove: (hash: string) =>
      t.inject({ method: 'DELETE', url: `/manage/wallets/${hash}`, headers: headers(), remoteAddress }),
    list: (query = '') => get(`/manage/wallets${query}`),
    logs: (hash: string, query = '') => get(`/manage/wallets/${hash}/logs${query}`),
    stats: (query = '') => get(`/manage/stats${query}`),
  };
}

export function expectPlain(
  res: { statusCode: number; body: string; headers: Record<string, unknown> },
  status: number,
  body: string,
) {
  expect([res.statusCode, res.body, res.headers['content-type']]).toEqual([status, body, PLAIN]);
}
