import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP, consoleFiles } from '../../../src/features/console/index.js';
import { startTestApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { describeInBrowser, useConsole } from '../../helpers/console-browser.js';

/** The budget for the first load: HTML + JS + CSS, compressed. */
const FIRST_LOAD_BUDGET = 150 * 1024;

describe('the console’s files, as the service serves them', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(async () => t.close());

  const assetPaths = async (): Promise<string[]> => {
    const page = await t.inject({ method: 'GET', url: '/console/' });
    return [...page.body.matchAll(/(?:src|href)="(assets\/[^"]+)"/g)].map((match) => `/console/${match[1]}`);
  };

  it('sends a browser from / to the console, and tells curl where the API is described', async () => {
    const root = await t.inject({ method: 'GET', url: '/' });
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe('console/');
    expect(root.headers['content-type']).toContain('text/plain');
    expect(root.body).toContain('/docs');
    const bare = await t.inject({ method: 'GET', url: '/console' });
    expect([bare.statusCode, bare.headers.location]).toEqual([302, 'console/']);
  });

  it('tells the console, free and unmetered, whether e-mail reaches this instance and what recharges it sells', async () => {
    const token = await t.createToken(10);
    const facts = await t.inject({ method: 'GET', url: '/console/service.json', headers: { 'x-token': token } });
    expect([facts.statusCode, facts.headers['content-type'], facts.headers['cache-control']]).toEqual([
      200,
      'application/json; charset=utf-8',
      'no-cache',
    ]);
    expect(facts.json()).toEqual({ receivesMail: true, rechargeAmounts: [] });
    expect(facts.headers['x-cost']).toBeUndefined();
    const noMail = await startTestApp('sqlite', { receivesMail: false });
    try {
      expect((await noMail.inject({ method: 'GET', url: '/console/service.json' })).json()).toEqual({
        receivesMail: false,
        rechargeAmounts: [],
      });
    } finally {
      await noMail.close();
    }
  });

  it('serves the page with a strict CSP that works over plain http, revalidated on every visit', async () => {
    const page = await t.inject({ method: 'GET', url: '/console/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toContain("default-src 'none'");
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).not.toMatch(/unsafe|upgrade-insecure-requests|https:|\*/);
    // No CDN: every script and style the page names is one of ours.
    expect(page.body).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    expect(await assetPaths()).toHaveLength(2);
  });

  it('serves hashed assets as immutable, compressed as the browser accepts', async () => {
    for (const path of await assetPaths()) {
      const plain = await t.inject({ method: 'GET', url: path });
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('accept-encoding');
      const brotli = await t.inject({ method: 'GET', url: path, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(brotli.headers['content-encoding']).toBe('br');
      expect(brotli.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      const gzip = await t.inject({ method: 'GET', url: path, headers: { 'accept-encoding': 'gzip' } });
      expect(gzip.headers['content-encoding']).toBe('gzip');
    }
  });

  it('answers an unknown asset 404 in plain text', async () => {
    const missing = await t.inject({ method: 'GET', url: '/console/assets/app-nope.js' });
    expect([missing.statusCode, missing.body]).toEqual([404, 'Not Found']);
    const traversal = await t.inject({ method: 'GET', url: '/console/assets/..%2F..%2Fpackage.json' });
    expect(traversal.statusCode).toBe(404);
  });

  it('keeps the first load (HTML, JS and CSS, gzip) under 150 KB', () => {
    const files = consoleFiles();
    expect(files).toBeDefined();
    const bytes = [files!.index, ...files!.assets.values()].reduce(
      (sum, file) => sum + gzipSync(file.identity).length,
      0,
    );
    console.info(`console first load: ${(bytes / 1024).toFixed(1)} KB gzip`);
    expect(bytes).toBeLessThan(FIRST_LOAD_BUDGET);
  });
});

describeInBrowser('the console’s first load in a browser', () => {
  const harness = useConsole('sqlite');

  it('is interactive within a second on the loopback', async () => {
    const page = await harness.open();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const interactive = await page.evaluate(() => performance.getEntriesByName('console-interactive')[0]?.startTime);
    expect(interactive).toBeDefined();
    expect(interactive!).toBeLessThan(1000);
  });
});
