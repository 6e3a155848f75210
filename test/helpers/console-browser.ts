/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// page.evaluate callbacks run in the browser: the DOM types are for them (this file and the tests importing it).
/**
 * The web console in a real browser: Debian's Chromium driven by playwright-core, against a test app listening on
 * loopback under a name that is not localhost (browsers treat localhost as a secure context, which would hide what
 * plain HTTP on a real host does). Nothing else resolves, so the page reaches nothing off this machine.
 *
 *   describeInBrowser('the key-value browser', () => {
 *     const harness = useConsole('sqlite', { env: { ADMIN_TOKEN: … } });
 *     it('…', async () => {
 *       const page = await harness.signedIn(await harness.t.createToken(500));
 *       await page.getByRole('link', { name: 'Key-value' }).click();
 *       await expectAccessible(page);
 *       await screenshot(page, 'kv');
 *     });
 *   });
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect } from 'vitest';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestApp } from './app.js';
import type { TestApp, TestAppOptions } from './app.js';
import type { StoreKind } from './stores.js';

export const CHROMIUM = '/usr/bin/chromium';
export const CONSOLE_HOST = 'coinop.test';
export const browserAvailable = existsSync(CHROMIUM);
if (!browserAvailable && process.env.CI !== undefined)
  throw new Error(`${CHROMIUM} is missing: CI must run the browser tests (apt-get install chromium)`);

/** A describe that runs only where the browser is installed, and says loudly when it is skipped. */
export function describeInBrowser(name: string, body: () => void): void {
  if (!browserAvailable)
    console.warn(
      `SKIPPED in-browser tests "${name}": ${CHROMIUM} is missing (apt-get install chromium, as .ci/run does)`,
    );
  describe.skipIf(!browserAvailable)(browserAvailable ? name : `${name} (skipped: ${CHROMIUM} is missing)`, body);
}

export interface ConsoleHarness {
  /** The app under test (its store, clock, createToken). Set in beforeAll. */
  readonly t: TestApp;
  /** http://coinop.test:<port> */
  readonly base: string;
  readonly browser: Browser;
  /** A fresh browser context (own sessionStorage) with a page on the console; any page error or CSP violation fails the test. */
  open(path?: string): Promise<Page>;
  /** A fresh page signed in with a wallet token (and the operator token when given). */
  signedIn(token: string | null, adminToken?: string): Promise<Page>;
}

/** Starts the app and the browser for the enclosing describe; closes both after it. */
export function useConsole(kind: StoreKind = 'sqlite', options: TestAppOptions = {}): ConsoleHarness {
  const state: { t?: TestApp; browser?: Browser; base?: string } = {};
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];
  beforeAll(async () => {
    state.t = await startTestApp(kind, options);
    await state.t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = state.t.app.server.address();
    state.base = `http://${CONSOLE_HOST}:${typeof address === 'object' && address !== null ? address.port : 0}`;
    state.browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [`--host-resolver-rules=MAP ${CONSOLE_HOST} 127.0.0.1, MAP * ~NOTFOUND`],
    });
  }, 60_000);
  // An uncaught error or a refused script or style on any page fails the test that opened it.
  afterEach(() => {
    const seen = problems.splice(0);
    expect(seen).toEqual([]);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await state.browser?.close();
    await state.t?.close();
  }, 60_000);

  const harness: ConsoleHarness = {
    get t() {
      return defined(state.t);
    },
    get base() {
      return defined(state.base);
    },
    get browser() {
      return defined(state.browser);
    },
    async open(path = '/console/') {
      const context = await harness.browser.newContext({ viewport: { width: 1200, height: 800 } });
      contexts.push(context);
      const page = await context.newPage();
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' && !/status of (4\d\d|501)/.test(message.text()))
          problems.push(`console error: ${message.text()}`);
      });
      await page.goto(`${harness.base}${path}`);
      return page;
    },
    async signedIn(token, adminToken) {
      const page = await harness.open();
      if (token !== null) await page.getByLabel('API token').fill(token);
      if (adminToken !== undefined) {
        await page.getByText('Operator', { exact: true }).click();
        await page.getByLabel('Admin token (ADMIN_TOKEN)').fill(adminToken);
      }
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      return page;
    },
  };
  return harness;
}

function defined<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('useConsole: used before its beforeAll ran');
  return value;
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/** axe-core on the page as it is now: no serious or critical violation (WCAG 2.1 A/AA rules). */
export async function expectAccessible(page: Page): Promise<void> {
  // Evaluated through the DevTools protocol, so the page's CSP (script-src 'self') does not stop it.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations;
  });
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${JSON.stringify(violation.nodes.map((node) => node.target))}`,
    );
  expect(serious).toEqual([]);
}

/**
 * Saves a screenshot of the page under docs/screenshots/<name>.png when SCREENSHOTS=1 (`npm run screenshots`), so the
 * pictures in docs/console.md are what the tests saw; otherwise does nothing (a test run leaves the tree as it was).
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.SCREENSHOTS !== '1') return;
  const dir = join(import.meta.dirname, '..', '..', 'docs', 'screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}
