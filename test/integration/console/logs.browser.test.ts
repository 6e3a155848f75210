import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, expectAccessible, screenshot, useConsole } from '../../helpers/console-browser.js';
import type { ConsoleHarness } from '../../helpers/console-browser.js';
import { ManualClock } from '../../helpers/app.js';

interface Row {
  readonly path: string;
  readonly category: string;
  readonly status: number;
}

/** The table's rows as the user reads them. */
async function rows(page: Page): Promise<Row[]> {
  const table = page.getByTestId('log-table');
  if ((await table.count()) === 0) return [];
  return table.locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => {
      const cells = [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim());
      return { path: cells[2] ?? '', category: cells[3] ?? '', status: Number(cells[4]) };
    }),
  );
}

async function calls(
  harness: ConsoleHarness,
  clock: ManualClock,
  token: string,
  list: ReadonlyArray<{ method: string; url: string; payload?: string }>,
) {
  for (const call of list) {
    // A second apart, so the table reads as a history.
    clock.advance(1000);
    await harness.t.inject({
      method: call.method as 'GET',
      url: call.url,
      headers: { 'x-token': token, 'content-type': 'text/plain' },
      ...(call.payload === undefined ? {} : { payload: call.payload }),
    });
  }
  await harness.t.deps.ledger.flush();
}

async function filter(page: Page, changes: { category?: string; status?: string; path?: string; perPage?: string }) {
  if (changes.category !== undefined) await page.getByLabel('Category').selectOption(changes.category);
  if (changes.status !== undefined) await page.getByLabel('Status').selectOption(changes.status);
  if (changes.path !== undefined) await page.getByLabel('Path starts with').fill(changes.path);
  if (changes.perPage !== undefined) await page.getByLabel('Per page').selectOption(changes.perPage);
  await page.getByRole('button', { name: 'Apply' }).click();
}

describeInBrowser('the call log page', () => {
  const clock = new ManualClock(Date.now() - 3_600_000);
  const harness = useConsole('sqlite', { clock });

  it('lists the calls made, newest first, filters by category, status and path, and refreshes on its own', async () => {
    const token = await harness.t.createToken(1000);
    await calls(harness, clock, token, [
      { method: 'POST', url: '/kv/shop/cart-1?ttl=3600', payload: '{"items":3}' },
      { method: 'GET', url: '/kv/shop/cart-1' },
      { method: 'GET', url: '/kv/shop/missing' },
      { method: 'POST', url: '/kv/shop/bad?ttl=-1', payload: 'x' },
      { method: 'GET', url: '/token' },
      { method: 'GET', url: '/token/settings' },
      { method: 'GET', url: '/webhook' },
      { method: 'GET', url: '/myip' },
    ]);
    const page = await harness.open();
    await page.clock.install();
    await page.getByLabel('API token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Call logs' }).click();
    await expect.poll(async () => (await rows(page)).length).toBeGreaterThanOrEqual(9);
    const all = await rows(page);
    // Newest first (the console's own reads, made at sign-in, come on top and are left out here).
    const ours = [
      '/myip',
      '/webhook',
      '/kv/shop/bad?ttl=-1',
      '/kv/shop/missing',
      '/kv/shop/cart-1',
      '/kv/shop/cart-1?ttl=3600',
    ];
    expect(all.map((row) => row.path).filter((path) => ours.includes(path))).toEqual(ours);
    expect(all.findIndex((row) => row.path === '/myip')).toBeGreaterThan(0);
    expect(all).toContainEqual({ path: '/kv/shop/missing', category: 'kv', status: 404 });
    expect(all).toContainEqual({ path: '/kv/shop/bad?ttl=-1', category: 'kv', status: 400 });
    expect(await page.getByRole('cell', { name: /Invalid ttl/ }).count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'logs');

    await filter(page, { category: 'kv' });
    await expect.poll(async () => (await rows(page)).map((row) => row.category)).toEqual(['kv', 'kv', 'kv', 'kv']);
    await filter(page, { status: '4xx' });
    await expect.poll(async () => (await rows(page)).map((row) => row.status)).toEqual([400, 404]);
    await filter(page, { category: '', status: '404' });
    await expect.poll(async () => (await rows(page)).map((row) => row.path)).toEqual(['/kv/shop/missing']);
    await filter(page, { status: '', path: '/kv/shop/c' });
    await expect
      .poll(async () => (await rows(page)).map((row) => row.path))
      .toEqual(['/kv/shop/cart-1', '/kv/shop/cart-1?ttl=3600']);
    await filter(page, { path: '/nothing-here' });
    await expect.poll(() => page.getByText('No calls match these filters.').count()).toBe(1);

    // A new call shows up within 5 s on the first page, and not while paused.
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByRole('button', { name: 'Pause' }).click();
    expect(await page.getByRole('button', { name: 'Resume' }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => page.getByTestId('log-results').getAttribute('aria-busy')).toBe('false');
    await calls(harness, clock, token, [{ method: 'GET', url: '/kv/shop/fresh' }]);
    await page.clock.runFor(6_000);
    expect((await rows(page)).map((row) => row.path)).not.toContain('/kv/shop/fresh');
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.clock.runFor(6_000);
    await expect.poll(async () => (await rows(page)).map((row) => row.path)).toContain('/kv/shop/fresh');
  });

  it('pages through older entries with a small page size, by keyboard', async () => {
    const token = await harness.t.createToken(1000);
    const keys = Array.from({ length: 7 }, (_, index) => `/kv/page/k${index}`);
    await calls(
      harness,
      clock,
      token,
      keys.map((url, index) => ({ method: 'POST', url, payload: String(index) })),
    );
    const page = await harness.signedIn(token);
    await page.getByRole('link', { name: 'Call logs' }).click();
    await filter(page, { category: 'kv', perPage: '5' });
    const newest = [...keys].reverse();
    await expect.poll(async () => (await rows(page)).map((row) => row.path)).toEqual(newest.slice(0, 5));
    expect(await page.getByRole('button', { name: 'Newest' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Older' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await rows(page)).map((row) => row.path)).toEqual(newest.slice(5));
    expect(await page.getByRole('status').filter({ hasText: 'Older entries, page 2.' }).count()).toBe(1);
    // The service's cursor is null after the last page: nothing older to ask for.
    await expect.poll(() => page.getByRole('button', { name: 'Older' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Pause' }).isDisabled()).toBe(true);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Newest' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await rows(page)).map((row) => row.path)).toEqual(newest.slice(0, 5));
  });
});
