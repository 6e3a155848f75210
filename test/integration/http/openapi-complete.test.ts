import { describe, expect, it, vi } from 'vitest';
import type { HTTPMethods } from 'fastify';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import type { TestApp } from '../../helpers/app.js';

/**
 * The OpenAPI document is complete: every operation named, summarised, priced (`x-cost`, and a sentence),
 * its cost headers, its plain-text errors in the catalogue's wording and one example exchange; the price is the one charged.
 */

const ENV = { ADMIN_TOKEN: 'operator-secret-0123456789', INBOUND_SECRET: 'relay-secret-0123456789' };

/** Every route, by the name clients are generated with. */
const OPERATION_IDS = [
  'healthCheck',
  'readinessCheck',
  'tokenCreate',
  'tokenGet',
  'logsList',
  'spendSummary',
  'settingsGet',
  'settingsUpdate',
  'kvSet',
  'kvGet',
  'kvDelete',
  'kvList',
  'kvBuckets',
  'webhookCreate',
  'webhookList',
  'webhookGet',
  'webhookReplace',
  'webhookUpdate',
  'webhookDelete',
  'webhookTest',
  'webhookDeliveries',
  'webhookDelivery',
  'webhookRedeliver',
  'dnsLookup',
  'mailAttachmentGet',
  'mailInject',
  'urlMetadata',
  'myIp',
  'rechargeLink',
  'rechargeDone',
  'stripeWebhook',
  'walletGet',
  'walletCredit',
  'walletDebit',
  'walletDelete',
  'walletList',
  'walletLogs',
  'serviceStats',
];
/** Operations that take no input a client could get wrong: no 4xx to document (redocly.yaml says the same). */
const WITHOUT_CLIENT_ERRORS = new Set(['healthCheck', 'readinessCheck', 'rechargeDone']);

interface Media {
  schema?: { type?: string; enum?: string[]; example?: unknown; $ref?: string; maxLength?: number };
  example?: unknown;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Array<Record<string, string[]>>;
  'x-cost'?: number | string;
  parameters?: Array<{
    name: string;
    in: string;
    required?: boolean;
    schema?: { default?: unknown };
    example?: unknown;
  }>;
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { headers?: Record<string, { $ref?: string }>; content?: Record<string, Media> }>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { headers?: Record<string, unknown> };
}

function operationsOf(document: Document): Array<{ method: string; path: string; operation: Operation }> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method, path, operation })),
  );
}

async function documentOf(t: TestApp): Promise<Document> {
  const res = await t.inject({ method: 'GET', url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const metered = (operation: Operation) => (operation.security ?? []).some((requirement) => 'TokenAuth' in requirement);

describeEachStore('the OpenAPI document, complete', (kind) => {
  const get = useTestApp(kind, { env: ENV });

  it('validates as OpenAPI 3.0 and names every route once', async () => {
    const document = await documentOf(get());
    await expect(
      SwaggerParser.validate(structuredClone(document) as unknown as Parameters<typeof SwaggerParser.validate>[0]),
    ).resolves.toBeTruthy();
    const ids = operationsOf(document).map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...OPERATION_IDS].sort());
  });

  it('gives every operation a summary, its cost as x-cost and as a sentence, and public ones an empty security list', async () => {
    for (const { method, path, operation } of operationsOf(await documentOf(get()))) {
      const name = `${method} ${path}`;
      expect(operation.summary, name).toMatch(/\S/);
      const cost = operation['x-cost'];
      expect(
        typeof cost === 'number' ? Number.isInteger(cost) && cost >= 0 : typeof cost === 'string' && /^\d/.test(cost),
        name,
      ).toBe(true);
      expect(operation.description, name).toMatch(
        cost === 0 ? /Free: costs 0 credits\.$/ : /(Costs \d+ credits?|Cost in credits: .+)\.$/,
      );
      expect(operation.security, name).toBeDefined();
    }
  });

  it('states the costs the contract gives', async () => {
    const byId = new Map(
      operationsOf(await documentOf(get())).map(({ operation }) => [operation.operationId, operation['x-cost']]),
    );
    expect(
      Object.fromEntries(
        ['tokenCreate', 'tokenGet', 'logsList', 'kvSet', 'webhookTest', 'myIp', 'rechargeLink'].map((id) => [
          id,
          byId.get(id),
        ]),
      ),
    ).toEqual({
      tokenCreate: 0,
      tokenGet: 1,
      logsList: 0,
      kvSet: 1,
      webhookTest: 1,
      myIp: 1,
      rechargeLink: 0,
    });
    expect(byId.get('dnsLookup')).toMatch(/^5\b.*0 for a 5xx/);
    expect(byId.get('urlMetadata')).toMatch(/^55, or 800 with aiSummary/);
    expect(byId.get('mailInject')).toMatch(/^2, or 5 with attachments/);
  });

  it('declares x-cost and x-balance on every answer of a metered operation but 401', async () => {
    const document = await documentOf(get());
    expect(Object.keys(document.components.headers ?? {}).sort()).toEqual(['XBalance', 'XCost']);
    const meteredOperations = operationsOf(document).filter(({ operation }) => metered(operation));
    expect(meteredOperations.length).toBeGreaterThan(15);
    for (const { method, path, operation } of meteredOperations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (status === '401') continue;
        expect(response.headers?.['x-cost']?.$ref, `${method} ${path} ${status}`).toBe('#/components/headers/XCost');
        expect(response.headers?.['x-balance']?.$ref, `${method} ${path} ${status}`).toBe(
          '#/components/headers/XBalance',
        );
      }
    }
  });

  it('documents the plain-text errors with the catalogue wording', async () => {
    const document = await documentOf(get());
    for (const { method, path, operation } of operationsOf(document)) {
      const name = `${method} ${path}`;
      const plain = Object.entries(operation.responses).filter(
        ([status, response]) => Number(status) >= 400 && response.content?.['text/plain'] !== undefined,
      );
      if (!WITHOUT_CLIENT_ERRORS.has(operation.operationId ?? ''))
        expect(
          plain.some(([status]) => Number(status) < 500),
          name,
        ).toBe(true);
      for (const [status, response] of plain) {
        const schema = response.content?.['text/plain']?.schema;
        expect([schema?.type, typeof schema?.example], `${name} ${status}`).toEqual(['string', 'string']);
        if (status === '401') expect(schema?.enum, name).toEqual(['Unauthorized']);
        if (status === '402') expect(schema?.enum, name).toEqual(['Insufficient credits']);
      }
    }
    const notFound = (path: string, method: string) =>
      document.paths[path]?.[method]?.responses['404']?.content?.['text/plain']?.schema?.enum;
    expect(notFound('/kv/{bucket}/{key}', 'get')).toEqual(['Key Not Found']);
    expect(notFound('/webhook/{webhookId}', 'get')).toEqual(['Webhook not found']);
    expect(notFound('/webhook/{webhookId}/deliveries/{deliveryId}', 'get')).toEqual([
      'Webhook not found',
      'Delivery not found',
    ]);
  });

  it('gives every operation an example answer, and an example body and parameters where it takes them', async () => {
    for (const { method, path, operation } of operationsOf(await documentOf(get()))) {
      const name = `${method} ${path}`;
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'));
      expect(success, name).toBeDefined();
      for (const media of Object.values(success?.[1].content ?? {})) expect(media.example, name).toBeDefined();
      for (const media of Object.values(operation.requestBody?.content ?? {}))
        expect(media.example, `${name} body`).toBeDefined();
      for (const parameter of operation.parameters ?? [])
        if (parameter.in === 'path') expect(parameter.example, `${name} ${parameter.name}`).toBeDefined();
    }
  });

  it('lets a client leave out every query parameter that has a default, and shows the KV value as the text body it is', async () => {
    const document = await documentOf(get());
    const defaulted = operationsOf(document).flatMap(({ method, path, operation }) =>
      (operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'query' && parameter.schema?.default !== undefined)
        .map((parameter) => ({ name: `${method} ${path} ${parameter.name}`, required: parameter.required })),
    );
    expect(defaulted.map((parameter) => parameter.name)).toContain('get /token/logs n');
    for (const parameter of defaulted) expect(parameter.required ?? false, parameter.name).toBe(false);
    const kvSet = operationsOf(document).find(({ operation }) => operation.operationId === 'kvSet')?.operation;
    expect(kvSet?.requestBody?.content['text/plain']).toMatchObject({
      schema: { type: 'string', maxLength: 1000 },
      example: 'dark',
    });
  });

  // The document states what a call is charged: the answer's x-cost is the documented number.
  it.each([
    ['tokenGet', 'GET', '/token', undefined],
    ['logsList', 'GET', '/token/logs', undefined],
    ['settingsGet', 'GET', '/token/settings', undefined],
    ['kvSet', 'POST', '/kv/docs/key', 'value'],
    ['kvGet', 'GET', '/kv/docs/key', undefined],
    ['kvDelete', 'DELETE', '/kv/docs/key', undefined],
    ['kvList', 'GET', '/kv/docs?prefix=k', undefined],
    ['kvBuckets', 'GET', '/kv?prefix=d', undefined],
    ['webhookList', 'GET', '/webhook', undefined],
    ['myIp', 'GET', '/myip', undefined],
  ] as Array<[string, HTTPMethods, string, string | undefined]>)(
    'charges %s what the document states',
    async (id, method, url, payload) => {
      const document = await documentOf(get());
      const documented = operationsOf(document).find(({ operation }) => operation.operationId === id)?.operation[
        'x-cost'
      ];
      const token = await get().createToken(50);
      if (method !== 'POST')
        await get().inject({
          method: 'POST',
          url: '/kv/docs/key',
          headers: { 'x-token': token, 'content-type': 'text/plain' },
          payload: 'v',
        });
      const res = await get().inject({
        method,
        url,
        headers: { 'x-token': token, ...(payload === undefined ? {} : { 'content-type': 'text/plain' }) },
        payload,
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-cost']).toBe(String(documented));
    },
  );
});

describe('/llms.txt', () => {
  const get = useTestApp('sqlite', { env: ENV });

  it('lists every operation of the document with its method, path, cost and summary, in the llms.txt format', async () => {
    const res = await get().inject({ method: 'GET', url: '/llms.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = res.body.split('\n');
    expect(lines[0]).toBe('# coinop');
    expect(lines.find((line) => line.startsWith('> '))).toMatch(/^> Credit-metered utility API/);
    expect(res.body).toContain('`POST /token` with the form body `token=new`');
    expect(res.body).toContain('a wallet with 100 credits. Send it as the `x-token` header');
    expect(res.body).toMatch(/^## kv$/m);
    expect(res.body).toMatch(/^## Optional$/m);
    const document = await documentOf(get());
    for (const { method, path, operation } of operationsOf(document)) {
      const cost = operation['x-cost'];
      const shown =
        cost === 0
          ? 'Cost: free.'
          : typeof cost === 'number'
            ? `Cost: ${cost} credit${cost === 1 ? '' : 's'}.`
            : `Cost in credits: ${cost}.`;
      const line = lines.find((candidate) => candidate.startsWith(`- [${operation.operationId}](`));
      expect(line, operation.operationId).toBeDefined();
      expect(line).toContain(`\`${method.toUpperCase()} ${path}\``);
      expect(line).toContain(operation.summary);
      expect(line?.endsWith(shown), line).toBe(true);
    }
    expect(lines.filter((line) => line.startsWith('- [')).length).toBe(operationsOf(document).length + 2);
  });

  it('is free, unmetered and not an operation of the document', async () => {
    const token = await get().createToken(5);
    const first = await get().inject({ method: 'GET', url: '/llms.txt', headers: { 'x-token': token } });
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-cost']).toBeUndefined();
    expect((await get().inject({ method: 'GET', url: '/llms.txt' })).body).toBe(first.body);
    expect(Object.keys((await documentOf(get())).paths)).not.toContain('/llms.txt');
    const wallet = await get().inject({ method: 'GET', url: '/token', headers: { 'x-token': token } });
    expect(wallet.headers['x-balance']).toBe('4');
  });

  it('is named on the landing page', async () => {
    expect((await get().inject({ method: 'GET', url: '/' })).body).toContain('/llms.txt');
  });
});

describe('/docs/json', () => {
  const get = useTestApp('sqlite', { env: ENV });

  it('answers with the document /openapi.json serves, from memory: no request serialises it again', async () => {
    const served = await get().inject({ method: 'GET', url: '/openapi.json' });
    // swagger-ui's own handler builds the answer from app.swagger() on every request (~110 KB to serialise).
    const built = vi.spyOn(get().app, 'swagger');
    try {
      for (const method of ['GET', 'GET', 'HEAD'] as const) {
        const res = await get().inject({ method, url: '/docs/json' });
        expect([method, res.statusCode, res.headers['content-type']]).toEqual([
          method,
          200,
          'application/json; charset=utf-8',
        ]);
        if (method === 'GET') expect(res.body).toBe(served.body);
      }
      expect(built).not.toHaveBeenCalled();
    } finally {
      built.mockRestore();
    }
  });
});
