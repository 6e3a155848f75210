import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, expectAccessible, screenshot, useConsole } from '../../helpers/console-browser.js';
import type { ConsoleHarness } from '../../helpers/console-browser.js';
import { ManualClock, balanceOf } from '../../helpers/app.js';
import { STORE_KINDS } from '../../helpers/stores.js';

const HOUR = 3_600_000;
const PAYMENT_LINK = 'https://buy.stripe.test/coinop-1m';

/** The chart's summary sentence, "12 credits spent in …", as a number (0 for the empty state). */
async function chartTotal(page: Page): Promise<number> {
  const text = (await page.getByTestId('spend-summary').textContent()) ?? '';
  const match = /^([\d,]+) credits? spent/.exec(text);
  return match === null ? 0 : Number((match[1] ?? '0').replace(/,/g, ''));
}

/**
 * Spent so far = what the wallet started with minus its balance, once every charge is logged and the chart shows it.
 * Read again on every try: the wallet page's own reads (GET /token, GET /token/settings) may still be landing.
 */
async function settledTotal(harness: ConsoleHarness, page: Page, token: string, initial: number): Promise<number> {
  let spent = -1;
  await expect
    .poll(async () => {
      await harness.t.deps.ledger.flush();
      spent = initial - ((await balanceOf(harness.t, token)) ?? initial);
      await page.getByRole('button', { name: 'Refresh' }).click();
      return (await chartTotal(page)) === spent;
    })
    .toBe(true);
  return spent;
}

/** The wallet page opens for free; its hash and notification settings are read on the button (2 credits). */
async function showDetails(page: Page): Promise<Page> {
  await page.getByRole('button', { name: 'Show token hash and notification settings' }).click();
  await page.getByLabel('Threshold (credits)').waitFor();
  return page;
}

async function spend(
  harness: ConsoleHarness,
  token: string,
  calls: ReadonlyArray<{ method: 'GET' | 'POST' | 'PUT'; url: string; payload?: string }>,
) {
  for (const call of calls) {
    const response = await harness.t.inject({
      method: call.method,
      url: call.url,
      headers: { 'x-token': token, 'content-type': 'text/plain' },
      payload: call.payload,
    });
    expect(response.statusCode).toBeLessThan(300);
  }
  await harness.t.deps.ledger.flush();
}

for (const kind of STORE_KINDS) {
  describeInBrowser(`the wallet page (${kind})`, () => {
    // The service's clock is moved by hand only to lay out a week of history for the screenshot; it starts at now.
    const clock = new ManualClock(Date.now());
    const harness = useConsole(kind, {
      clock,
      env: { STRIPE_PAYMENT_LINK_1M: PAYMENT_LINK, STRIPE_WEBHOOK_SECRET: 'whsec_console_test' },
    });

    it('shows the spend chart move by exactly the credits spent, refreshing on its own', async () => {
      const token = await harness.t.createToken(1000);
      const page = await harness.open();
      // The page's 30-s timer runs on a clock driven by hand (installed before the wallet page sets it).
      await page.clock.install();
      await page.getByLabel('API token').fill(token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.getByTestId('wallet-balance').textContent()).toMatch(/credits/);
      const before = await settledTotal(harness, page, token, 1000);
      await spend(harness, token, [
        { method: 'POST', url: '/kv/chart/a', payload: '1' },
        { method: 'POST', url: '/kv/chart/b', payload: '2' },
        { method: 'GET', url: '/kv/chart/a' },
        { method: 'GET', url: '/token/settings' },
      ]);
      await page.clock.runFor(31_000);
      await expect.poll(() => chartTotal(page)).toBe(before + 4);
      const legend = page.getByRole('list', { name: 'Categories' });
      await expect.poll(() => legend.textContent()).toContain('kv');
      expect(await legend.textContent()).toContain('settings');
      // The table behind "Show as table" holds the same numbers.
      await page.getByText('Show as table').click();
      const totals = await page.locator('.spend-table tbody td:last-child').allTextContents();
      expect(totals.reduce((sum, cell) => sum + Number(cell.replace(/,/g, '')), 0)).toBe(before + 4);
    });

    if (kind !== 'sqlite') return;

    it('says plainly when nothing was spent, and switches to hours by keyboard', async () => {
      const token = await harness.t.createToken(500);
      const page = await harness.open();
      // Signed in without the page's own paid reads having been logged yet: a fresh wallet with no calls at all.
      await page.evaluate((value) => sessionStorage.setItem('coinop.token', value), token);
      await page.route('**/token/spend*', (route) =>
        route.fulfill({
          json: { by: 'day', from: new Date().toISOString(), to: new Date().toISOString(), series: [] },
        }),
      );
      await page.reload();
      await expect
        .poll(() => page.getByTestId('spend-summary').textContent())
        .toBe('No credits spent in the last 7 days.');
      await expectAccessible(page);
      await page.unroute('**/token/spend*');
      // Opening the page spent nothing: a call to draw.
      await spend(harness, token, [{ method: 'POST', url: '/kv/chart/a', payload: '1' }]);
      await page.getByRole('radio', { name: 'Per day, 7 days' }).focus();
      await page.keyboard.press('ArrowRight');
      expect(await page.getByRole('radio', { name: 'Per hour, 48 hours' }).isChecked()).toBe(true);
      await expect
        .poll(() => page.getByTestId('spend-summary').textContent())
        .toMatch(/credits? spent in the last 48 hours/);
      await expect.poll(() => page.locator('.spend-bars text.x-label').count()).toBeGreaterThanOrEqual(8);
    });

    it('previews the low-balance notification live, as the service would send it, and saves it', async () => {
      const token = await harness.t.createToken(800);
      const page = await showDetails(await harness.signedIn(token));
      const preview = page.getByTestId('preview-body');
      await page.getByLabel('Threshold (credits)').fill('50');
      await page.getByLabel('E-mail').fill('ops@example.com');
      await page.getByLabel('Webhook URL (HTTPS)').fill('https://hooks.example.com/low-balance');
      await page.getByLabel('Format').selectOption('slack');
      const slack = JSON.parse((await preview.textContent()) ?? '') as { text: string };
      expect(slack.text).toContain('Wallet balance 50 is at or below the threshold 50.');
      await page.getByLabel('Format').selectOption('discord');
      const discord = JSON.parse((await preview.textContent()) ?? '') as { content: string };
      expect(discord.content).toContain('threshold 50');
      expect(Object.keys(discord)).not.toEqual(Object.keys(slack));
      // Every keystroke: the threshold typed shows at once.
      await page.getByLabel('Threshold (credits)').fill('75');
      await expect.poll(() => preview.textContent()).toContain('threshold 75');
      // A template the service would refuse says why, in the service's words.
      await page.getByLabel('Format').selectOption('custom');
      await expect.poll(() => preview.textContent()).toContain('"text"');
      await page.getByLabel(/^Template/).fill('{"text": "{{wallet"}');
      await expect.poll(() => page.getByTestId('preview-problem').textContent()).toMatch(/^Invalid template/);
      await page.getByLabel('Format').selectOption('pagerduty');
      await expect
        .poll(() => page.getByTestId('preview-problem').textContent())
        .toBe('Invalid format: pagerduty requires options.routing_key');
      await page.getByLabel('PagerDuty routing_key').fill('R0UTINGKEY');
      await expect.poll(() => page.getByTestId('preview-problem').count()).toBe(0);
      expect(await preview.textContent()).toContain('"routing_key": "R0UTINGKEY"');
      await expectAccessible(page);
      await page.getByLabel('Format').selectOption('discord');
      // Saved from the keyboard: Enter in a field submits the form.
      await page.getByLabel('E-mail').press('Enter');
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved.' }).count()).toBe(1);
      const saved = await harness.t.inject({ method: 'GET', url: '/token/settings', headers: { 'x-token': token } });
      expect(saved.json()).toEqual({
        low_balance_threshold: 75,
        low_balance_email: 'ops@example.com',
        low_balance_webhook: { url: 'https://hooks.example.com/low-balance', headers: {}, format: 'discord' },
      });
    });

    it('refuses in the page a low-balance update the service would refuse, in its words, for nothing', async () => {
      const token = await harness.t.createToken(800);
      const page = await showDetails(await harness.signedIn(token));
      const before = await balanceOf(harness.t, token);
      const save = page.getByRole('button', { name: 'Save settings' });
      const refusal = async (message: string) => {
        await save.click();
        await expect.poll(() => page.getByRole('alert').textContent()).toBe(message);
      };
      await page.getByLabel('Threshold (credits)').fill('1000000000001');
      await refusal('Invalid low_balance_threshold: must be an integer from 0 to 1000000000000');
      await page.getByLabel('Threshold (credits)').fill('50');
      await page.getByLabel('Webhook URL (HTTPS)').fill('http://hooks.example.com/low-balance');
      await refusal('Invalid low_balance_webhook.url: must be an https URL');
      await page.getByLabel('Webhook URL (HTTPS)').fill('https://hooks.example.com/low-balance');
      await page.getByLabel(/^Extra headers/).fill('Host: other.example');
      await refusal('Invalid low_balance_webhook.headers: "Host" cannot be set');
      await page.getByLabel(/^Extra headers/).fill('');
      await page.getByLabel('Webhook URL (HTTPS)').fill('');
      // The browser takes an address without a dot in its domain; the service does not, and its words decide.
      await page.getByLabel('E-mail').fill('ops@localhost');
      await refusal('Invalid low_balance_email: must be an e-mail address of at most 254 characters');
      expect(await balanceOf(harness.t, token)).toBe(before);
      await page.getByLabel('E-mail').fill('ops@example.com');
      // What only the service can judge (the address a URL reaches) is refused there, and charged: the page says so.
      await page.getByLabel('Webhook URL (HTTPS)').fill('https://127.0.0.1/low-balance');
      await save.click();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('refused address');
      // The settings' own line (the details' 2 credits have a line of their own above).
      const charged = page
        .getByRole('region', { name: 'Low-balance notifications' })
        .getByText(/^Charged \d+ credits?; balance/);
      await expect.poll(() => charged.textContent()).toBe(`Charged 1 credit; balance ${(before ?? 0) - 1}.`);
      expect(await balanceOf(harness.t, token)).toBe((before ?? 0) - 1);
      await page.getByLabel('Webhook URL (HTTPS)').fill('');
      // The save stores, then reads the settings back: "Saved." and one line for both charges, the 2 credits it showed.
      await save.click();
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved.' }).count()).toBe(1);
      await expect.poll(() => charged.textContent()).toBe(`Charged 2 credits; balance ${(before ?? 0) - 3}.`);
      expect(await balanceOf(harness.t, token)).toBe((before ?? 0) - 3);
    });

    it('offers only the amount the service sells (a link for 1 million, none for 3) and gets its payment link', async () => {
      const page = await harness.signedIn(await harness.t.createToken(300));
      const amount = page.getByLabel('Amount');
      // Once the page has read service.json, the amount without a link (a click would be answered 501) is not offered.
      await expect.poll(() => amount.locator('option').allTextContents()).toEqual(['1 million credits']);
      await page.getByRole('button', { name: 'Get a payment link' }).click();
      const link = page.getByRole('link', { name: /^Pay for 1 million credits/ });
      expect(await link.getAttribute('href')).toContain(PAYMENT_LINK);
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await link.getAttribute('rel')).toContain('noopener');
      await expectAccessible(page);
    });

    it('reads the hash and settings once for the session, as it says: 2 credits, shown; a reload costs nothing', async () => {
      const token = await harness.t.createToken(50);
      const page = await showDetails(await harness.signedIn(token));
      await expect.poll(() => page.getByText('Charged 2 credits; balance 48.').count()).toBe(1);
      expect(await balanceOf(harness.t, token)).toBe(48);
      await page.reload();
      await page.getByLabel('Copy hash: value').waitFor();
      await page.getByLabel('Threshold (credits)').waitFor();
      await harness.t.deps.ledger.flush();
      expect(await balanceOf(harness.t, token)).toBe(48);
    });

    it('shows the token hash, never the token, and a week of spending (screenshot)', async () => {
      const token = await harness.t.createToken(25_000);
      const now = clock.now();
      // A week of varied use, a few hours a day: KV, settings, wallet reads, webhooks.
      for (let day = 6; day >= 0; day -= 1) {
        for (const hour of [9, 13, 17]) {
          clock.set(now - day * 24 * HOUR - (hour % 7) * HOUR);
          const calls = 2 + ((day * 7 + hour) % 9);
          for (let index = 0; index < calls; index += 1) {
            await harness.t.inject({
              method: 'POST',
              url: `/kv/app/key-${index}`,
              headers: { 'x-token': token, 'content-type': 'text/plain' },
              payload: 'v',
            });
          }
          await harness.t.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } });
          if (day % 2 === 0)
            await harness.t.inject({ method: 'GET', url: '/token/settings', headers: { 'x-token': token } });
          if (hour === 13) await harness.t.inject({ method: 'GET', url: '/webhook', headers: { 'x-token': token } });
        }
      }
      await harness.t.deps.ledger.flush();
      clock.set(now);
      const page = await showDetails(await harness.signedIn(token));
      await expect.poll(() => chartTotal(page)).toBeGreaterThan(100);
      const hash = await page.getByLabel('Copy hash: value').inputValue();
      expect(hash).toMatch(/^[0-9a-f]{64}$/);
      expect(await page.content()).not.toContain(token);
      await page.getByLabel('Threshold (credits)').fill('1000');
      await page.getByLabel('E-mail').fill('billing@example.com');
      await page.getByLabel('Webhook URL (HTTPS)').fill('https://hooks.slack.com/services/T000/B000/XXXX');
      await page.getByLabel('Format').selectOption('slack');
      await expectAccessible(page);
      await screenshot(page, 'wallet');
    });
  });
}
