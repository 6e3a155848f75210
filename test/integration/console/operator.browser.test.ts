import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { sha256Hex } from '../../../src/lib/hash.js';
import { balanceOf, ManualClock } from '../../helpers/app.js';
import type { TestApp } from '../../helpers/app.js';
import { describeInBrowser, expectAccessible, screenshot, useConsole } from '../../helpers/console-browser.js';
import { STORE_KINDS } from '../../helpers/stores.js';

const ADMIN_TOKEN = 'operator-secret-0123456789';
const DAY = 86_400_000;
/** The machine is shared: give the page time to answer. */
const patiently = { timeout: 5_000 };

/** Opens a wallet's page the way an operator does: its hash typed into "Open a wallet". */
async function openWallet(page: Page, hash: string): Promise<void> {
  await page.getByLabel('Wallet hash').fill(hash);
  await page.getByLabel('Wallet hash').press('Enter');
  await page.getByRole('heading', { level: 1, name: `Wallet ${hash.slice(0, 8)}…` }).waitFor();
  await page.getByTestId('operator-balance').waitFor();
}

/**
 * Wallets with a week of spending behind them (1 credit per GET /token), so the totals and the chart show something
 * real. Each day's calls are made halfway between that day's midnight (UTC, where the stats' days begin) and this
 * moment's time of day: the seven days are today and the six before it at any hour, the first hour after midnight
 * included (an hour before this moment, six days back, was then outside the window).
 */
async function seedWeek(t: TestApp, clock: ManualClock): Promise<string[]> {
  const now = Date.now();
  const today = now - (now % DAY);
  clock.set(today - 6 * DAY + Math.floor((now - today) / 2));
  const tokens = [await t.createToken(12_500), await t.createToken(3_200), await t.createToken(840)];
  for (const calls of [14, 31, 9, 46, 23, 58, 17]) {
    for (let call = 0; call < calls; call++) {
      const token = tokens[call % tokens.length] as string;
      expect((await t.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } })).statusCode).toBe(200);
    }
    tokens.push(await t.createToken(100 + calls * 7));
    clock.advance(DAY);
  }
  clock.set(Date.now());
  return tokens;
}

for (const kind of STORE_KINDS) {
  describeInBrowser(`the operator console (${kind})`, () => {
    const clock = new ManualClock(Date.now());
    const harness = useConsole(kind, { env: { ADMIN_TOKEN }, clock });
    const signedIn = () => harness.signedIn(null, ADMIN_TOKEN);
    // The flow runs on every store; the rest of the page's behaviour does not depend on the store.
    const onSqliteOnly = (name: string, body: () => Promise<void>) => kind === 'sqlite' && it(name, body);

    // First, so the overview shows only the week's wallets.
    onSqliteOnly('shows a week of real use: totals, spend per day, wallets; accessible in light and dark', async () => {
      const tokens = await seedWeek(harness.t, clock);
      const page = await signedIn();
      await page.getByTestId('total-wallets').waitFor();
      const wallets = (await harness.t.deps.store.read.get<{ n: number }>('SELECT COUNT(*) AS n FROM wallets', []))?.n;
      expect(await page.getByTestId('total-wallets').textContent()).toBe(Number(wallets).toLocaleString('en-US'));
      // At least the week's 198 calls of 1 credit, as the service counts them; one bar per day.
      const stats = (
        await harness.t.inject({
          method: 'GET',
          url: '/manage/stats?days=7',
          headers: { 'x-admin-token': ADMIN_TOKEN },
        })
      ).json() as {
        spentPerDay: Array<{ day: string; credits: number }>;
      };
      const spent = stats.spentPerDay.reduce((sum, day) => sum + day.credits, 0);
      expect(spent).toBeGreaterThanOrEqual(198);
      expect(await page.locator('.day-bars svg').getAttribute('aria-label')).toBe(
        `Credits spent per day, last 7 days: ${spent} credits over 7 days`,
      );
      expect(await page.locator('.day-bars svg title').allTextContents()).toHaveLength(7);
      await page.getByText('Show as a table').click();
      expect(await page.locator('.day-bars tbody tr').allTextContents()).toEqual(
        stats.spentPerDay.map((day) => `${day.day}${day.credits}`),
      );
      await page.getByText('Show as a table').click();
      await page.getByLabel('Sort by').selectOption('balance');
      const richestBalance = (
        await harness.t.deps.store.read.get<{ n: number }>('SELECT MAX(balance) AS n FROM wallets', [])
      )?.n;
      await expect
        .poll(async () => (await page.getByTestId('wallet-balance').allTextContents())[0], patiently)
        .toBe(Number(richestBalance).toLocaleString('en-US'));
      await expectAccessible(page);
      await page.emulateMedia({ colorScheme: 'dark' });
      await expectAccessible(page);
      await page.emulateMedia({ colorScheme: 'light' });
      await screenshot(page, 'operator');

      const richest = tokens[0] as string;
      await page.goto(`${harness.base}/console/#/operator`);
      await openWallet(page, sha256Hex(richest));
      await page.getByLabel('Amount (credits)').fill('999999999');
      await page.getByRole('button', { name: 'Debit', exact: true }).click();
      await page.getByRole('alert').waitFor();
      await expectAccessible(page);
      await page.emulateMedia({ colorScheme: 'dark' });
      await expectAccessible(page);
      await page.emulateMedia({ colorScheme: 'light' });
      await page.getByLabel('Amount (credits)').fill('2500');
      await page.getByLabel('Reason').fill('Invoice 2026-118 paid by bank transfer');
      await page.getByRole('button', { name: 'Credit', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Credited' }).waitFor();
      await expect
        .poll(() => page.getByTestId('log-reason').allTextContents(), patiently)
        .toContain('Invoice 2026-118 paid by bank transfer');
      // The refused debit is in the log too, with the service's status; its path shows the hash shortened, whole in the tooltip.
      const debitCells = page.locator('tr', { hasText: '/debit' }).locator('td');
      expect(await debitCells.nth(4).textContent()).toBe('409');
      const debitPath = `/manage/wallets/${sha256Hex(richest)}/debit`;
      expect(await debitCells.nth(2).textContent()).toBe(`/manage/wallets/${sha256Hex(richest).slice(0, 8)}…/debit`);
      expect(await debitCells.nth(2).getAttribute('title')).toBe(debitPath);
      await expectAccessible(page);
      await page.locator('h1').focus();
      await screenshot(page, 'operator-wallet');
    });

    it('credits a wallet with a reason, and the reason shows in that wallet’s logs', async () => {
      const token = await harness.t.createToken(500);
      const hash = sha256Hex(token);
      const page = await signedIn();
      await openWallet(page, hash);
      await page.getByLabel('Amount (credits)').fill('250');
      await page.getByLabel('Reason').fill('Support ticket 1234: refund');
      await page.getByRole('button', { name: 'Credit', exact: true }).click();
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'Credited' }).textContent(), patiently)
        .toBe('Credited 250 credits; balance now 750.');
      expect(await page.getByTestId('operator-balance').textContent()).toContain('750');
      await expect
        .poll(() => page.getByTestId('log-reason').allTextContents(), patiently)
        .toContain('Support ticket 1234: refund');
      // The same row through the wallet's own API: a manage entry carrying the reason.
      const logs = await harness.t.inject({
        method: 'GET',
        url: '/token/logs?type=manage',
        headers: { 'x-token': token },
      });
      const entries = (logs.json() as { logs: Array<{ path: string; reason?: string }> }).logs;
      expect(entries).toContainEqual(
        expect.objectContaining({ path: `/manage/wallets/${hash}/credit`, reason: 'Support ticket 1234: refund' }),
      );
      expect(await balanceOf(harness.t, token)).toBe(750);
    });

    onSqliteOnly('shows the service’s refusal of a debit beyond the balance, and changes nothing', async () => {
      const token = await harness.t.createToken(40);
      const page = await signedIn();
      await openWallet(page, sha256Hex(token));
      await page.getByLabel('Amount (credits)').fill('100');
      await page.getByLabel('Reason').fill('Chargeback');
      await page.getByRole('button', { name: 'Debit', exact: true }).click();
      await expect.poll(() => page.getByRole('alert').textContent(), patiently).toBe('409: Balance too low');
      expect(await page.getByTestId('operator-balance').textContent()).toContain('40');
      expect(await balanceOf(harness.t, token)).toBe(40);
      // A debit the balance covers goes through.
      await page.getByLabel('Amount (credits)').fill('15');
      await page.getByRole('button', { name: 'Debit', exact: true }).click();
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'Debited' }).textContent(), patiently)
        .toBe('Debited 15 credits; balance now 25.');
      expect(await balanceOf(harness.t, token)).toBe(25);
    });

    onSqliteOnly('lists wallets sorted by balance, the richest first, a page at a time', async () => {
      for (const credits of [7, 1_000_000, 300, 42, 999_999]) await harness.t.createToken(credits);
      for (let extra = 0; extra < 20; extra++) await harness.t.createToken(1 + extra);
      const page = await signedIn();
      await page.getByLabel('Sort by').selectOption('balance');
      const balances = async () =>
        (await page.getByTestId('wallet-balance').allTextContents()).map((text) => Number(text.replace(/\D/g, '')));
      await expect.poll(async () => (await balances())[0], patiently).toBe(1_000_000);
      const first = await balances();
      expect(first[1]).toBe(999_999);
      expect(first).toHaveLength(20);
      expect(first).toEqual([...first].sort((a, b) => b - a));
      await page.getByRole('button', { name: 'More' }).click();
      await expect.poll(async () => (await balances()).length, patiently).toBeGreaterThan(20);
      const all = await balances();
      expect(all).toEqual([...all].sort((a, b) => b - a));
      const total = (await harness.t.deps.store.read.get<{ n: number }>('SELECT COUNT(*) AS n FROM wallets', []))?.n;
      expect(all).toHaveLength(Number(total));
    });

    onSqliteOnly('deletes a wallet once its hash is confirmed: its token then gets 401', async () => {
      const token = await harness.t.createToken(75);
      const hash = sha256Hex(token);
      expect((await harness.t.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } })).statusCode).toBe(
        200,
      );
      const page = await signedIn();
      await openWallet(page, hash);
      const remove = page.getByRole('button', { name: 'Delete wallet' });
      const confirm = page.getByLabel(/to confirm/);
      await confirm.fill(hash.slice(0, 7));
      expect(await remove.isDisabled()).toBe(true);
      await confirm.fill(hash.slice(0, 8));
      await remove.click();
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'Deleted' }).textContent(), patiently)
        .toContain(`Deleted wallet ${hash.slice(0, 8)}`);
      expect(await page.evaluate<string>('document.activeElement?.textContent ?? ""')).toContain('Deleted wallet');
      expect((await harness.t.inject({ method: 'GET', url: '/token', headers: { 'x-token': token } })).statusCode).toBe(
        401,
      );
      await page.getByRole('link', { name: 'All wallets' }).click();
      await page.getByTestId('wallet-balance').first().waitFor();
      expect(await page.locator(`a[href="#/operator/${hash}"]`).count()).toBe(0);
      expect(await balanceOf(harness.t, token)).toBeUndefined();
    });

    onSqliteOnly('signed in with only the admin token, shows only the Operator section', async () => {
      const page = await signedIn();
      const sections = await page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allTextContents();
      expect(sections).toEqual(['Operator']);
      expect(await page.getByTestId('balance').count()).toBe(0);
      // The address names the page shown.
      await expect.poll(() => new URL(page.url()).hash).toBe('#/operator');
      await page.getByRole('heading', { level: 1, name: 'Operator' }).waitFor();
      // Opening a wallet wants its hash, not a token.
      await page.getByLabel('Wallet hash').fill('tok_not-a-hash');
      await page.getByRole('button', { name: 'Open', exact: true }).click();
      await expect.poll(() => page.getByRole('alert').textContent(), patiently).toContain('64 hexadecimal characters');
      expect(new URL(page.url()).hash).toBe('#/operator');
    });

    onSqliteOnly('refuses a wrong admin token at sign-in and keeps nothing', async () => {
      const page = await harness.open();
      await page.getByText('Operator', { exact: true }).click();
      await page.getByLabel('Admin token (ADMIN_TOKEN)').fill('not-the-operator-token');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.getByRole('alert').textContent(), patiently).toBe('403: Forbidden');
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
      expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    });

    onSqliteOnly('credits by keyboard alone: Tab to the amount, type, Tab to the reason, Enter', async () => {
      const token = await harness.t.createToken(60);
      const page = await signedIn();
      await openWallet(page, sha256Hex(token));
      const focusedId = () => page.evaluate<string>("document.activeElement?.id ?? ''");
      for (let presses = 0; presses < 15 && (await focusedId()) !== 'adjust-amount'; presses++)
        await page.keyboard.press('Tab');
      expect(await focusedId()).toBe('adjust-amount');
      await page.keyboard.type('40');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Goodwill');
      await page.keyboard.press('Enter');
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'Credited' }).textContent(), patiently)
        .toBe('Credited 40 credits; balance now 100.');
      await expect.poll(() => page.getByTestId('log-reason').allTextContents(), patiently).toContain('Goodwill');
      expect(await balanceOf(harness.t, token)).toBe(100);
    });
  });
}
