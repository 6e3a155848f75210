import { expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, screenshot, useConsole } from '../../helpers/console-browser.js';
import { sha256Hex } from '../../../src/lib/hash.js';

describeInBrowser('signing in to the console', () => {
  const harness = useConsole('sqlite', { env: { ADMIN_TOKEN: 'operator-secret-0123456789' } });

  it('creates a new token and signs in with it at once, showing the token once and what the wallet holds', async () => {
    const page = await harness.open();
    await expectAccessible(page);
    await screenshot(page, 'sign-in');
    await page.getByRole('button', { name: 'Create a new token' }).click();
    const shown = await page.getByLabel('Copy token: value').inputValue();
    expect(shown).toMatch(/^\S{10,}$/);
    // New wallets hold 100 credits; signing in and the wallet page it opens are free.
    expect(await page.getByTestId('new-token').textContent()).toContain(
      'Signed in with a new wallet holding 100 credits.',
    );
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('100 credits');
    expect(new URL(page.url()).hash).toBe('#/wallet');
    expect(await page.evaluate(() => sessionStorage.getItem('coinop.token'))).toBe(shown);
    expect(page.url()).not.toContain(shown);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'I have saved it' }).click();
    expect(await page.getByLabel('Copy token: value').count()).toBe(0);
  });

  it('refuses a wrong token with the service’s own message and keeps nothing', async () => {
    const page = await harness.open();
    await page.getByLabel('API token').fill('not-a-real-token-123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('401');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it('lets go of a token the service stops taking (its wallet deleted) and asks for another, saying why', async () => {
    const token = await harness.t.createToken(20);
    const page = await harness.signedIn(token);
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('20 credits');
    const removed = await harness.t.inject({
      method: 'DELETE',
      url: `/manage/wallets/${sha256Hex(token)}`,
      headers: { 'x-admin-token': 'operator-secret-0123456789' },
    });
    expect(removed.statusCode).toBe(200);
    // Opening Key-value reads the buckets: the service answers 401.
    await page.getByRole('link', { name: 'Key-value' }).click();
    await expect
      .poll(() => page.getByTestId('sign-in-notice').textContent())
      .toBe(
        'The service no longer takes this token (401): its wallet may have been deleted. Sign in with another token.',
      );
    expect(await page.evaluate(() => sessionStorage.getItem('coinop.token'))).toBeNull();
    await page.reload();
    await page.getByLabel('API token').waitFor();
  });

  it('says how long to wait when a new token was made from this address moments ago (429)', async () => {
    // One new token per address every 10 s: the second of two at once is refused, whatever came before.
    await (await harness.open()).getByRole('button', { name: 'Create a new token' }).click();
    const page = await harness.open();
    await page.getByRole('button', { name: 'Create a new token' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toMatch(/^429: Too Many Requests\. Try again in \d+ s\.$/);
  });

  it('reaches every section by keyboard alone', async () => {
    const page = await harness.signedIn(await harness.t.createToken(50));
    // From the first stop of the document (the page's heading holds the focus after sign-in).
    const focused = () => page.evaluate(() => (document.activeElement?.textContent ?? '').trim());
    await page.getByRole('link', { name: 'Skip to content' }).focus();
    const reached: string[] = [await focused()];
    while (reached.length < 12 && reached[reached.length - 1] !== 'Sign out') {
      await page.keyboard.press('Tab');
      reached.push(await focused());
    }
    expect(reached).toEqual(
      expect.arrayContaining(['Skip to content', 'Wallet', 'Call logs', 'Key-value', 'Webhooks', 'Tools', 'Sign out']),
    );
    while ((await focused()) !== 'Key-value') await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => location.hash)).toBe('#/kv');
    // The new page's heading takes focus, so the next Tab starts in the page.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
  });
});
