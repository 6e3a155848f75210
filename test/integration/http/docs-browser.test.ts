import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { startTestApp } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';

/** Debian's package (.ci/run installs it); Playwright's own browser download cannot work on these machines. */
const CHROMIUM = '/usr/bin/chromium';
/** Not localhost: browsers treat localhost and 127.0.0.1 as secure, which hid the blank page over plain http. */
const HOST = 'coinop.test';
const available = existsSync(CHROMIUM);
if (!available && process.env.CI !== undefined)
  throw new Error(`${CHROMIUM} is missing: CI must run the /docs browser test (apt-get install chromium)`);

describe('/docs content security policy', () => {
  it('keeps every asset on the origin and scheme of the page: no upgrade-insecure-requests', async () => {
    const t = await startTestApp('sqlite');
    try {
      const res = await t.inject({ method: 'GET', url: '/docs/static/index.html' });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(csp).not.toMatch(/https:/);
    } finally {
      await t.close();
    }
  });
});

const suite = '/docs in a real browser over plain http from a host that is not localhost';
describe.skipIf(!available)(
  available ? suite : `${suite} (skipped: ${CHROMIUM} is missing; apt-get install chromium, as .ci/run does)`,
  () => {
    let t: TestApp;
    let browser: Browser;
    let base: string;

    beforeAll(async () => {
      t = await startTestApp('sqlite');
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const address = t.app.server.address();
      base = `http://${HOST}:${typeof address === 'object' && address !== null ? address.port : 0}`;
      // Only this name is mapped, to loopback; nothing else can resolve, so the page reaches nothing off this machine.
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [`--host-resolver-rules=MAP ${HOST} 127.0.0.1, MAP * ~NOTFOUND`],
      });
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
      await t?.close();
    });

    it('renders every operation, with no asset refused or upgraded to https', async () => {
      const page = await browser.newPage();
      const failed: string[] = [];
      const violations: string[] = [];
      page.on('requestfailed', (request) => failed.push(request.url()));
      page.on('console', (message) => {
        if (message.type() === 'error') violations.push(message.text());
      });
      await page.goto(`${base}/docs`);
      const kvGet = page.locator('.opblock.opblock-get:has(.opblock-summary-path[data-path="/kv/{bucket}/{key}"])');
      await kvGet.waitFor({ timeout: 20_000 });

      const document = (await t.inject({ method: 'GET', url: '/openapi.json' })).json() as {
        paths: Record<string, Record<string, unknown>>;
      };
      const operations = Object.values(document.paths).flatMap((item) =>
        Object.keys(item).filter((key) => ['get', 'put', 'post', 'delete', 'patch'].includes(key)),
      );
      expect(await page.locator('.opblock').count()).toBe(operations.length);
      expect(failed).toEqual([]);
      expect(violations).toEqual([]);
      await page.close();
    }, 60_000);
  },
);
