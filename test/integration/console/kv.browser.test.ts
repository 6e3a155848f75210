import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, expectAccessible, screenshot, useConsole } from '../../helpers/console-browser.js';
import type { ConsoleHarness } from '../../helpers/console-browser.js';
import { STORE_KINDS } from '../../helpers/stores.js';
import { balanceOf } from '../../helpers/app.js';

const HOUR = 3_600_000;

async function seed(
  harness: ConsoleHarness,
  token: string,
  entries: ReadonlyArray<{ bucket: string; key: string; value: string; ttl?: number }>,
) {
  for (const entry of entries) {
    const response = await harness.t.inject({
      method: 'POST',
      url: `/kv/${encodeURIComponent(entry.bucket)}/${encodeURIComponent(entry.key)}${entry.ttl === undefined ? '' : `?ttl=${entry.ttl}`}`,
      headers: { 'x-token': token, 'content-type': 'text/plain' },
      payload: entry.value,
    });
    expect(response.statusCode).toBe(200);
  }
}

async function openKeyValue(harness: ConsoleHarness, token: string): Promise<Page> {
  const page = await harness.signedIn(token);
  await page.getByRole('link', { name: 'Key-value' }).click();
  await page.getByRole('heading', { name: 'Buckets' }).waitFor();
  return page;
}

const keyRows = (page: Page) => page.getByRole('table', { name: 'Keys' }).locator('tbody tr');

for (const kind of STORE_KINDS) {
  describeInBrowser(`the key-value browser: the issue's flow (${kind})`, () => {
    const harness = useConsole(kind);

    it('sets a value with a time to live and sees it listed with the time remaining', async () => {
      const token = await harness.t.createToken(100);
      const page = await openKeyValue(harness, token);
      await expect.poll(() => page.getByText('No buckets yet').count()).toBe(1);
      const form = page.getByRole('region', { name: 'Set a value' });
      await expect.poll(() => form.getByText('Costs 1 credit').count()).toBe(1);
      await form.getByLabel('Bucket').fill('settings');
      await form.getByLabel('Key').fill('theme');
      await form.getByLabel('Value').fill('dark ☾');
      await form.getByLabel('Time to live').fill('2');
      await form.getByLabel('Unit').selectOption('hours');
      const setAt = Date.now();
      await form.getByRole('button', { name: 'Set value' }).click();
      await expect.poll(() => form.getByRole('status').textContent()).toContain('Saved theme in settings');
      await expect.poll(() => form.getByText(/Charged 1 credit/).count()).toBe(1);
      // The stored entry is what the form said: the value, and an expiry two hours on.
      const listed = await harness.t.inject({ method: 'GET', url: '/kv/settings', headers: { 'x-token': token } });
      const [entry] = listed.json().keys;
      expect(entry).toMatchObject({ key: 'theme', size: Buffer.byteLength('dark ☾') });
      expect(Math.abs(Date.parse(entry.expiresAt) - setAt - 2 * HOUR)).toBeLessThan(60_000);
      // The bucket list reloaded with the new bucket, its key count and size.
      const bucketRow = page.getByRole('table', { name: 'Buckets' }).getByRole('row', { name: /settings/ });
      await expect.poll(() => bucketRow.textContent()).toBe(`settings1${Buffer.byteLength('dark ☾')} B`);
      await bucketRow.getByRole('link', { name: 'settings' }).click();
      await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/kv/settings');
      const row = keyRows(page).first();
      await expect.poll(() => row.textContent()).toBe('themeexpires in 2 h8 B');
      const exact = await row.locator('time').getAttribute('title');
      expect(exact).toContain(String(new Date(entry.expiresAt).getFullYear()));
      expect(await row.locator('time').getAttribute('datetime')).toBe(entry.expiresAt);
    });
  });
}

describeInBrowser('the key-value browser', () => {
  const harness = useConsole('sqlite');

  it('opens a value, edits it, and deletes it only after a confirmation', async () => {
    const token = await harness.t.createToken(100);
    await seed(harness, token, [
      { bucket: 'profiles', key: 'user:42', value: '{"name":"Ada"}', ttl: 3 * 86400 },
      { bucket: 'profiles', key: 'user:43', value: '{"name":"Grace"}' },
    ]);
    const page = await openKeyValue(harness, token);
    await page.getByRole('link', { name: 'profiles' }).click();
    await keyRows(page).first().getByRole('link', { name: 'user:42' }).click();
    const panel = page.getByRole('region', { name: /user:42/ });
    await expect.poll(() => panel.getByTestId('kv-value').textContent()).toBe('{"name":"Ada"}');
    await expect.poll(() => panel.getByText(/Charged 1 credit/).count()).toBe(1);
    await expectAccessible(page);

    await panel.getByRole('button', { name: 'Edit' }).click();
    expect(await panel.getByLabel('Value').inputValue()).toBe('{"name":"Ada"}');
    await panel.getByLabel('Value').fill('{"name":"Ada Lovelace"}');
    await panel.getByLabel('Time to live').fill('5');
    await panel.getByLabel('Unit').selectOption('minutes');
    await panel.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => panel.getByTestId('kv-value').textContent()).toBe('{"name":"Ada Lovelace"}');
    await expect.poll(() => keyRows(page).first().textContent()).toMatch(/^user:42expires in 5 min23 B$/);
    // The save says what it cost, as every paid action does.
    await expect.poll(() => panel.getByText(/^Charged 1 credit; balance \d+\.$/).count()).toBe(1);

    await panel.getByRole('button', { name: 'Delete' }).click();
    // Asking changes nothing yet; Cancel keeps the entry.
    await expect
      .poll(() => panel.getByRole('group', { name: 'Confirm delete' }).textContent())
      .toContain('Delete user:42?');
    await expectAccessible(page);
    await panel.getByRole('button', { name: 'Cancel' }).click();
    expect(
      (await harness.t.inject({ method: 'GET', url: '/kv/profiles/user:42', headers: { 'x-token': token } }))
        .statusCode,
    ).toBe(200);
    await panel.getByRole('button', { name: 'Delete' }).click();
    await panel.getByRole('button', { name: 'Yes, delete' }).click();
    await expect.poll(() => panel.getByRole('status').textContent()).toBe('Deleted.');
    await expect.poll(() => keyRows(page).count()).toBe(1);
    expect(await keyRows(page).first().textContent()).toContain('user:43');
    expect(
      (await harness.t.inject({ method: 'GET', url: '/kv/profiles/user:42', headers: { 'x-token': token } }))
        .statusCode,
    ).toBe(404);
  });

  it('opens the edit form with the time the entry has left, and saving keeps it there', async () => {
    const token = await harness.t.createToken(100);
    await seed(harness, token, [{ bucket: 'short', key: 'lived', value: 'soon gone', ttl: 180 }]);
    const page = await openKeyValue(harness, token);
    await page.getByRole('link', { name: 'short' }).click();
    await keyRows(page).first().getByRole('link', { name: 'lived' }).click();
    const panel = page.getByRole('region', { name: /lived/ });
    await expect.poll(() => panel.getByTestId('kv-value').textContent()).toBe('soon gone');
    await panel.getByRole('button', { name: 'Edit' }).click();
    // Not the 30 days of a new value: the 3 minutes it has left, and a word that saving starts them again.
    expect(await panel.getByLabel('Time to live').inputValue()).toBe('3');
    expect(await panel.getByLabel('Unit').inputValue()).toBe('minutes');
    expect(await panel.getByTestId('kv-ttl-left').textContent()).toBe('This entry expires in 3 min.');
    expect(await panel.getByText('Saving starts the time to live again').count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'kv-edit');
    await panel.getByLabel('Value').fill('still soon gone');
    await panel.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => panel.getByTestId('kv-value').textContent()).toBe('still soon gone');
    const [entry] = (await harness.t.inject({ method: 'GET', url: '/kv/short', headers: { 'x-token': token } })).json()
      .keys;
    const left = Date.parse(entry.expiresAt) - Date.now();
    expect(left).toBeGreaterThan(120_000);
    expect(left).toBeLessThanOrEqual(180_000);
    await expect.poll(() => keyRows(page).first().textContent()).toMatch(/^livedexpires in 3 min15 B$/);
  });

  it('pages through a bucket of many keys with More, and filters by prefix', async () => {
    const token = await harness.t.createToken(200);
    const keys = Array.from({ length: 45 }, (_, index) => `k${String(index).padStart(3, '0')}`);
    await seed(harness, token, [
      ...keys.map((key) => ({ bucket: 'many', key, value: 'v' })),
      { bucket: 'many', key: 'other', value: 'x' },
    ]);
    const page = await openKeyValue(harness, token);
    await page.getByRole('link', { name: 'many' }).click();
    await expect.poll(() => keyRows(page).count()).toBe(20);
    await page.getByRole('button', { name: 'More keys' }).click();
    await expect.poll(() => keyRows(page).count()).toBe(40);
    await page.getByRole('button', { name: 'More keys' }).click();
    await expect.poll(() => keyRows(page).count()).toBe(46);
    expect(await page.getByRole('button', { name: 'More keys' }).count()).toBe(0);
    const names = await keyRows(page).locator('td:first-child').allTextContents();
    expect(names).toEqual([...keys, 'other']);
    await expect.poll(() => page.getByText('46 keys shown, all of them').count()).toBe(1);

    await page.getByLabel('Keys starting with').fill('k04');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect
      .poll(() => keyRows(page).locator('td:first-child').allTextContents())
      .toEqual(['k040', 'k041', 'k042', 'k043', 'k044']);
    await page.getByLabel('Keys starting with').fill('zzz');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.getByText('No key starts with “zzz”.').count()).toBe(1);
  });

  it('lists the buckets with their key counts and sizes, a page at a time', async () => {
    const token = await harness.t.createToken(500);
    const buckets = Array.from({ length: 23 }, (_, index) => `b${String(index).padStart(2, '0')}`);
    await seed(
      harness,
      token,
      buckets.map((bucket, index) => ({ bucket, key: 'only', value: 'x'.repeat(index + 1) })),
    );
    await seed(harness, token, [{ bucket: 'b00', key: 'second', value: 'é' }]);
    const page = await openKeyValue(harness, token);
    const rows = page.getByRole('table', { name: 'Buckets' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(20);
    expect(await rows.first().locator('td').allTextContents()).toEqual(['b00', '2', '3 B']);
    await page.getByRole('button', { name: 'More buckets' }).click();
    await expect.poll(() => rows.count()).toBe(23);
    expect(await rows.last().locator('td').allTextContents()).toEqual(['b22', '1', '23 B']);
    await page.getByLabel('Buckets starting with').fill('b1');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => rows.count()).toBe(10);
    // Another wallet's buckets never show.
    const stranger = await openKeyValue(harness, await harness.t.createToken(10));
    await expect.poll(() => stranger.getByText('No buckets yet').count()).toBe(1);
  });

  it('marks the counts of a bucket too large to count in full as lower bounds', async () => {
    // The service counts each bucket's first 500 entries on the console's pages of 20 and says `capped` beyond; seeding
    // that many through the API would take longer than this whole file, so the page gets an answer of that shape.
    const page = await openKeyValue(harness, await harness.t.createToken(10));
    await page.route(
      (url) => url.pathname === '/kv',
      (route) =>
        route.fulfill({
          status: 200,
          contentType: 'application/json',
          headers: { 'x-cost': '1', 'x-balance': '7' },
          body: JSON.stringify({
            buckets: [{ bucket: 'events', keys: 500, size: 2_400_000, capped: true }],
            cursor: null,
          }),
        }),
    );
    await page.getByRole('button', { name: 'Filter' }).click();
    const cells = page.getByRole('table', { name: 'Buckets' }).locator('tbody tr').first().locator('td');
    await expect.poll(() => cells.allTextContents()).toEqual(['events', '500+', '2.3 MB+']);
    expect(await cells.nth(1).getAttribute('title')).toBe('Counted up to a limit: at least this many');
  });

  it('refuses a name or time to live the service would refuse in the page, in its words and the unit chosen, for nothing', async () => {
    const token = await harness.t.createToken(100);
    const page = await openKeyValue(harness, token);
    const form = page.getByRole('region', { name: 'Set a value' });
    const submit = form.getByRole('button', { name: 'Set value' });
    await form.getByLabel('Bucket').fill('reserved-things');
    await form.getByLabel('Key').fill('a');
    await form.getByLabel('Value').fill('x');
    await expect
      .poll(() => form.getByRole('alert').textContent())
      .toBe('Invalid bucket: must not start with reserved-');
    expect(await submit.isDisabled()).toBe(true);
    await form.getByLabel('Bucket').fill('fine');
    await form.getByLabel('Time to live').fill('31');
    await expect
      .poll(() => form.getByRole('alert').textContent())
      .toBe('Time to live: must be a whole number of days from 0 to 30 (30 days)');
    expect(await submit.isDisabled()).toBe(true);
    await form.getByLabel('Unit').selectOption('hours');
    await expect.poll(() => form.getByRole('alert').count()).toBe(0);
    expect(await submit.isDisabled()).toBe(false);
    await expectAccessible(page);
    // Only the listing the page opened with was charged.
    await harness.t.deps.ledger.flush();
    expect(await balanceOf(harness.t, token)).toBe(99);
  });

  it('sets a value with the keyboard alone', async () => {
    const token = await harness.t.createToken(100);
    const page = await openKeyValue(harness, token);
    await expect.poll(() => page.getByText('No buckets yet').count()).toBe(1);
    await page.getByLabel('Bucket', { exact: true }).focus();
    await page.keyboard.type('keyboard');
    await page.keyboard.press('Tab');
    await page.keyboard.type('typed');
    await page.keyboard.press('Tab');
    await page.keyboard.type('by keys only');
    await page.keyboard.press('Tab'); // the TTL amount
    await page.keyboard.press('Control+A');
    await page.keyboard.type('90');
    await page.keyboard.press('Tab'); // the unit
    await page.keyboard.press('ArrowUp'); // days → hours
    await page.keyboard.press('ArrowUp'); // → minutes
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter'); // the submit button
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Saved' }).textContent())
      .toContain('Saved typed in keyboard');
    await expect.poll(() => page.getByRole('link', { name: 'keyboard', exact: true }).count()).toBe(1);
    // The set costs its one credit, logged as the same call with curl; the bucket list follows without being read again.
    await harness.t.deps.ledger.flush();
    const logs = (
      await harness.t.inject({ method: 'GET', url: '/token/logs?n=2', headers: { 'x-token': token } })
    ).json();
    expect(
      logs.logs.map(
        (entry: { method: string; path: string; cost: number }) => `${entry.method} ${entry.path} ${entry.cost}`,
      ),
    ).toEqual(['POST /kv/keyboard/typed?ttl=5400 1', 'GET /kv?limit=20 1']);
    const listed = (
      await harness.t.inject({ method: 'GET', url: '/kv/keyboard', headers: { 'x-token': token } })
    ).json();
    expect(listed.keys).toHaveLength(1);
    expect(Date.parse(listed.keys[0].expiresAt) - Date.now()).toBeGreaterThan(85 * 60_000);
    expect(Date.parse(listed.keys[0].expiresAt) - Date.now()).toBeLessThanOrEqual(90 * 60_000);
  });

  it('looks right with realistic data (screenshot)', async () => {
    const token = await harness.t.createToken(5000);
    await seed(harness, token, [
      { bucket: 'sessions', key: 'sess_8f2a91c0', value: JSON.stringify({ user: 42, cart: [3, 7] }), ttl: 1800 },
      { bucket: 'sessions', key: 'sess_b71e04d2', value: JSON.stringify({ user: 7, cart: [] }), ttl: 5400 },
      { bucket: 'sessions', key: 'sess_c09d3e55', value: JSON.stringify({ user: 1981, cart: [12] }), ttl: 86400 },
      { bucket: 'feature-flags', key: 'new-checkout', value: 'on', ttl: 0 },
      { bucket: 'feature-flags', key: 'dark-mode', value: 'beta', ttl: 7 * 86400 },
      { bucket: 'rate-limits', key: 'ip:203.0.113.7', value: '17', ttl: 60 },
      { bucket: 'settings', key: 'theme', value: 'dark' },
    ]);
    const page = await openKeyValue(harness, token);
    await expect.poll(() => page.getByRole('table', { name: 'Buckets' }).locator('tbody tr').count()).toBe(4);
    await expectAccessible(page);
    await page.getByRole('link', { name: 'sessions' }).click();
    await keyRows(page).first().getByRole('link').click();
    await expect.poll(() => page.getByTestId('kv-value').textContent()).toContain('"user":42');
    await expectAccessible(page);
    await screenshot(page, 'kv');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page);
  });
});
