import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../helpers/app.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import type { HttpsReceiver, ReceivedRequest } from '../../helpers/https-receiver.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';

export const PLAIN = 'text/plain; charset=utf-8';
export const JSON_TYPE = 'application/json; charset=utf-8';
export const MAIL_DOMAIN = 'hooks.coinop.test';
/** `r_` + 16 lowercase base32 characters at the configured domain. */
export const MAILBOX_ADDRESS = new RegExp(`^r_[a-z2-7]{16}@${MAIL_DOMAIN.replace(/\./g, '\\.')}$`);
export const SIGNING_SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

/**
 * A real HTTPS receiver on 127.0.0.1 and the environment that lets the app reach it:
 * loopback allowed, the receiver's CA trusted (through a PEM file, as OUTBOUND_CA_FILE wants).
 * Call at describe level; `env` is ready at once, the receiver after beforeAll.
 */
export function useReceiver(): { env: Record<string, string>; receiver: () => HttpsReceiver } {
  const fixture = useOutboundFixture();
  return { env: { ...fixture.env, MAIL_DOMAIN }, receiver: fixture.receiver };
}

/** The webhook API of one wallet. */
export function webhookApi(t: TestApp, token: string) {
  const headers = { 'x-token': token };
  const json = (method: 'POST' | 'PUT' | 'PATCH', url: string, body: unknown) =>
    t.inject({
      method,
      url,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  return {
    create: (body: unknown) => json('POST', '/webhook', body),
    list: () => t.inject({ method: 'GET', url: '/webhook', headers }),
    get: (id: string) => t.inject({ method: 'GET', url: `/webhook/${id}`, headers }),
    put: (id: string, body: unknown) => json('PUT', `/webhook/${id}`, body),
    patch: (id: string, body: unknown) => json('PATCH', `/webhook/${id}`, body),
    remove: (id: string) => t.inject({ method: 'DELETE', url: `/webhook/${id}`, headers }),
    test: (id: string) => t.inject({ method: 'POST', url: `/webhook/${id}/test`, headers }),
    logs: (type: string, n = 10) => t.inject({ method: 'GET', url: `/token/logs?n=${n}&type=${type}`, headers }),
  };
}
export type WebhookApi = ReturnType<typeof webhookApi>;

/** A 200 JSON answer, parsed. */
export function ok(res: LightMyRequestResponse): Record<string, any> {
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe(JSON_TYPE);
  return res.json() as Record<string, any>;
}

/** A plain-text client error that was still charged its credit. */
export function expectError(res: LightMyRequestResponse, status: number, body: string): void {
  expect({ status: res.statusCode, body: res.body }).toEqual({ status, body });
  expect(res.headers['content-type']).toBe(PLAIN);
  expect(res.headers['x-cost']).toBe('1');
}

/** What `action` made the receiver get: exactly one request. */
export async function received(receiver: HttpsReceiver, action: () => Promise<unknown>): Promise<ReceivedRequest> {
  const before = receiver.requests.length;
  await action();
  const all = await receiver.waitForRequests(before + 1);
  expect(receiver.requests).toHaveLength(before + 1);
  return all[before] as ReceivedRequest;
}

/** Columns of one wallet's stored webhook, read straight from the store. */
export async function storedRow(
  t: TestApp,
  token: string,
  webhookId: string,
  columns: string,
): Promise<Record<string, unknown> | undefined> {
  return t.deps.store.read.get<Record<string, unknown>>(
    `SELECT ${columns} FROM webhooks WHERE webhook_id = $1 AND wallet_id = (SELECT id FROM wallets WHERE hash = $2)`,
    [webhookId, sha256Hex(token)],
  );
}
