/**
 * A new user's first session, clicked and typed as they would: sign in by creating a token, set, edit and delete a
 * value, create a webhook with a bad cron and then a good one, look up a name that is not one, open the wallet. After
 * each action the wallet moved by exactly the cost the page showed before the click; every invalid input is refused in
 * the page, with no request sent and nothing charged.
 */
import { expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { describeInBrowser, expectAccessible, screenshot, useConsole } from '../../helpers/console-browser.js';
import { balanceOf } from '../../helpers/app.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';

/** The cost a label states: "Costs 5 credits" → 5, "Free" → 0. */
async function costShown(label: Locator): Promise<number> {
  const text = ((await label.textContent()) ?? '').trim();
  if (text === 'Free') return 0;
  const match = /^Costs ([\d,]+) credits?$/.exec(text);
  if (match === null) throw new Error(`not a cost label: "${text}"`);
  return Number((match[1] ?? '').replace(/,/g, ''));
}

let lastCalls: string[] = [];
/** How long a page is watched after an action for a charge that should not come (a follow-up read would start at once). */
const SETTLE_MS = 600;

/** The calls the page made to the service (not its own files), as "METHOD /path". */
function watchCalls(page: Page): string[] {
  const calls: string[] = [];
  lastCalls = calls;
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!url.pathname.startsWith('/console/')) calls.push(`${request.method()} ${url.pathname}`);
  });
  return calls;
}

const headerBalance = async (page: Page): Promise<number> =>
  Number(((await page.getByTestId('balance').textContent()) ?? '').replace(/\D/g, ''));
const address = (page: Page): Promise<string> => page.evaluate(() => location.hash);

describeInBrowser("a new user's first session", () => {
  const outbound = useOutboundFixture();
  const harness = useConsole('sqlite', { env: outbound.env });

  /** The wallet's stored balance once every charge is settled. */
  const stored = async (token: string): Promise<number> => {
    await harness.t.deps.ledger.flush();
    return (await balanceOf(harness.t, token)) ?? Number.NaN;
  };

  /**
   * Runs one action and checks that it cost exactly `shown`, both in the store and in the header; `done` waits for
   * the page to finish it. Then nothing more is charged while the page sits (no follow-up reads).
   */
  async function costs(
    page: Page,
    token: string,
    shown: number,
    action: () => Promise<void>,
    done: () => Promise<unknown>,
  ): Promise<void> {
    const before = await stored(token);
    const sent = lastCalls.length;
    await action();
    await done();
    await expect
      .poll(async () => before - (await stored(token)), { message: lastCalls.slice(sent).join(', ') })
      .toBe(shown);
    // And nothing more follows on its own (no paid re-read or re-list after the action).
    await page.waitForTimeout(SETTLE_MS);
    expect(before - (await stored(token)), lastCalls.slice(sent).join(', ')).toBe(shown);
    await expect.poll(() => headerBalance(page)).toBe(await stored(token));
  }

  /** An invalid input: refused in the page (the message given), the submit disabled, nothing sent, nothing charged. */
  async function refusedInPage(
    page: Page,
    token: string,
    calls: string[],
    submit: Locator,
    message: Locator,
    expected: string | RegExp,
  ): Promise<void> {
    const before = await stored(token);
    const sent = calls.length;
    await expect.poll(() => message.textContent()).toMatch(expected);
    expect(await submit.isDisabled()).toBe(true);
    // Enter in the form must not get round the disabled button either.
    await submit.evaluate((button) => (button as HTMLButtonElement).form?.requestSubmit());
    await page.waitForTimeout(200);
    expect(calls.slice(sent)).toEqual([]);
    expect(await stored(token)).toBe(before);
  }

  it('costs exactly what each label said, and refuses every mistake in the page for nothing', async () => {
    const page = await harness.open();
    const calls = watchCalls(page);

    // Sign in by creating a token: free, signed in at once, told what the wallet holds, the address names the page.
    expect(await page.getByText('Free: makes a new wallet').count()).toBe(1);
    await page.getByRole('button', { name: 'Create a new token' }).click();
    const notice = page.getByTestId('new-token');
    await expect.poll(() => notice.textContent()).toContain('Signed in with a new wallet holding 100 credits.');
    const token = await page.getByLabel('Copy token: value').inputValue();
    expect(await stored(token)).toBe(100);
    await expect.poll(() => address(page)).toBe('#/wallet');
    await page.waitForTimeout(SETTLE_MS);
    expect(await stored(token)).toBe(100);
    await expect.poll(() => page.getByTestId('wallet-balance').textContent()).toBe('100 credits');
    await expectAccessible(page);
    await screenshot(page, 'first-session-wallet');
    await page.getByRole('button', { name: 'I have saved it' }).click();

    // Key-value: opening it lists the buckets, for the cost its link shows.
    const sections = page.getByRole('navigation', { name: 'Sections' });
    expect(await sections.getByRole('listitem').filter({ hasText: 'Key-value' }).textContent()).toBe(
      'Key-value1 credit to open',
    );
    await page.getByRole('link', { name: 'Key-value' }).click();
    await expect.poll(() => page.getByText('No buckets yet').count()).toBe(1);
    await expect.poll(() => stored(token)).toBe(99);
    expect(await page.getByText('Charged 1 credit; balance 99.').count()).toBe(1);

    const form = page.getByRole('region', { name: 'Set a value' });
    const setButton = form.getByRole('button', { name: 'Set value' });
    await form.getByLabel('Bucket').fill('reserved-things');
    await form.getByLabel('Key').fill('theme');
    await refusedInPage(
      page,
      token,
      calls,
      setButton,
      form.getByRole('alert'),
      'Invalid bucket: must not start with reserved-',
    );
    await form.getByLabel('Bucket').fill('settings');
    await form.getByLabel('Key').fill('a/b');
    await refusedInPage(
      page,
      token,
      calls,
      setButton,
      form.getByRole('alert'),
      'Invalid key: must not contain control characters or /',
    );
    await form.getByLabel('Key').fill('theme');
    await form.getByLabel('Value').fill('x'.repeat(1001));
    await expect
      .poll(() => form.getByText('Plain text, at most 1000 characters (1001 now).').getAttribute('class'))
      .toContain('error');
    await refusedInPage(page, token, calls, setButton, form.getByText(/1001 now/), /at most 1000/);
    await form.getByLabel('Value').fill('dark');
    // The time to live in the unit chosen: 31 days is refused in days, not in seconds.
    await form.getByLabel('Time to live').fill('31');
    await refusedInPage(
      page,
      token,
      calls,
      setButton,
      form.getByRole('alert'),
      'Time to live: must be a whole number of days from 0 to 30 (30 days)',
    );
    await form.getByLabel('Time to live').fill('-5');
    await form.getByLabel('Unit').selectOption('minutes');
    await refusedInPage(
      page,
      token,
      calls,
      setButton,
      form.getByRole('alert'),
      'Time to live: must be a whole number of minutes from 0 to 43,200 (30 days)',
    );
    await form.getByLabel('Time to live').fill('3');
    expect(await setButton.isDisabled()).toBe(false);

    // Set: 1 credit, and the bucket appears without a paid re-list.
    await costs(
      page,
      token,
      await costShown(form.locator('.cost')),
      () => setButton.click(),
      () => expect.poll(() => form.getByRole('status').textContent()).toContain('Saved theme in settings'),
    );
    expect(
      await page.getByRole('table', { name: 'Buckets' }).locator('tbody tr').first().locator('td').allTextContents(),
    ).toEqual(['settings', '1', '4 B']);
    await expect.poll(() => page.getByText('1 bucket shown').count()).toBe(1);

    // Opening the bucket and the key read them, each the charge it shows.
    await page.getByRole('link', { name: 'settings', exact: true }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Keys' }).locator('tbody tr').count()).toBe(1);
    await expect.poll(() => stored(token)).toBe(97);
    await page.getByRole('link', { name: 'theme', exact: true }).click();
    const panel = page.getByRole('region', { name: /theme/ });
    await expect.poll(() => panel.getByTestId('kv-value').textContent()).toBe('dark');
    await expect.poll(() => stored(token)).toBe(96);

    // Edit: the time left is filled in; Save costs its 1 credit only (no re-read of the value, no re-list).
    await panel.getByRole('button', { name: 'Edit' }).click();
    expect(await panel.getByLabel('Time to live').inputValue()).toBe('3');
    expect(await panel.getByLabel('Unit').inputValue()).toBe('minutes');
    await panel.getByLabel('Value').fill('light');
    await costs(
      page,
      token,
      await costShown(panel.locator('.cost')),
      () => panel.getByRole('button', { name: 'Save' }).click(),
      () => expect.poll(() => panel.getByTestId('kv-value').textContent()).toBe('light'),
    );
    await expect
      .poll(() => page.getByRole('table', { name: 'Keys' }).locator('tbody tr').first().textContent())
      .toMatch(/^themeexpires in 3 min5 B$/);

    // Delete: its 1 credit only; the row goes without a re-list.
    await panel.getByRole('button', { name: 'Delete' }).click();
    await costs(
      page,
      token,
      await costShown(panel.locator('.cost')),
      () => panel.getByRole('button', { name: 'Yes, delete' }).click(),
      () => expect.poll(() => panel.getByRole('status').textContent()).toBe('Deleted.'),
    );
    await expect.poll(() => page.getByText('No live keys in this bucket.').count()).toBe(1);
    expect(await stored(token)).toBe(94);

    // Webhooks: the list (for the cost its link shows), then a new one with mistakes the page catches first.
    expect(await sections.getByRole('listitem').filter({ hasText: 'Webhooks' }).textContent()).toBe(
      'Webhooks1 credit to open',
    );
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await expect.poll(() => page.getByText('No webhooks yet.').count()).toBe(1);
    await expect.poll(() => stored(token)).toBe(93);
    await page.getByRole('link', { name: 'New webhook' }).click();
    const create = page.getByRole('button', { name: 'Create webhook' });
    const problem = page.getByTestId('webhook-problem');
    await page.getByRole('radio', { name: /^Scheduled/ }).check();
    await page.getByLabel('Webhook ID').fill('nightly');
    await page.getByLabel('Callback URL').fill(outbound.url('/nightly').replace('https:', 'http:'));
    await refusedInPage(page, token, calls, create, problem, 'Invalid url: must be an https URL');
    await page.getByLabel('Callback URL').fill(outbound.url('/nightly'));
    await page.getByLabel('Cron expression').fill('61 * * * *');
    await refusedInPage(page, token, calls, create, problem, /minute "61" is out of range 0-59/);
    await expectAccessible(page);
    await screenshot(page, 'webhook-new-refused');
    await page.getByLabel('Cron expression').fill('* * * * *');
    await expect
      .poll(() => page.getByTestId('cron-cost').textContent())
      .toBe('2 credits a run: 2,880 credits a day (1,440 runs in the next 24 hours).');
    await page.getByLabel('Time zone').fill('Mars/Olympus_Mons');
    await refusedInPage(page, token, calls, create, problem, /unknown IANA time zone/);
    await page.getByLabel('Time zone').fill('Europe/Paris');
    await page.getByLabel('Cron expression').fill('0 9 * * 1-5');
    await expect.poll(() => page.getByTestId('cron-cost').textContent()).toMatch(/^2 credits a run: 10 credits a week/);
    await expectAccessible(page);
    await screenshot(page, 'webhook-new-checked');
    await costs(
      page,
      token,
      await costShown(page.locator('form .actions .cost')),
      () => create.click(),
      () => page.getByTestId('webhook-created').waitFor(),
    );
    // The address follows: the webhook's own page, showing the secret once, without reading it again.
    await expect.poll(() => address(page)).toBe('#/webhooks/nightly');
    expect(await page.getByLabel('Copy signing secret: value').inputValue()).toMatch(/^whsec_/);

    // DNS: a name that is not one is refused in the page, 5 credits not spent.
    await page.getByRole('link', { name: 'Tools', exact: true }).click();
    const tool = page.getByRole('region', { name: 'DNS lookup' });
    await tool.getByLabel('Domains or IP addresses').fill('localhost');
    await refusedInPage(
      page,
      token,
      calls,
      tool.getByRole('button', { name: 'Look up' }),
      tool.getByTestId('dns-problem'),
      '"localhost" is not a valid domain name or IP address (domains[0])',
    );
    expect(await stored(token)).toBe(92);

    // The wallet: free to open; the hash and settings cost the 2 credits the button says.
    await costs(
      page,
      token,
      0,
      () => page.getByRole('link', { name: 'Wallet' }).click(),
      () => page.getByRole('heading', { level: 1, name: 'Wallet' }).waitFor(),
    );
    await costs(
      page,
      token,
      await costShown(page.locator('.wallet-hash .cost')),
      () => page.getByRole('button', { name: 'Show token hash and notification settings' }).click(),
      () => page.getByLabel('Copy hash: value').waitFor(),
    );
    expect(await stored(token)).toBe(90);
    // The chart has caught up with every charge of the session: 10 credits out of 100.
    await expect.poll(() => page.getByTestId('spend-summary').textContent()).toMatch(/^10 credits spent/);
    // Coming back to the wallet costs nothing: what was read is kept for the session.
    await page.getByRole('link', { name: 'Tools', exact: true }).click();
    await costs(
      page,
      token,
      0,
      () => page.getByRole('link', { name: 'Wallet' }).click(),
      () => page.getByLabel('Copy hash: value').waitFor(),
    );
  });

  it('says what to check when a token is refused', async () => {
    const page = await harness.open();
    await page.getByLabel('API token').fill('not-a-real-token-123');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toMatch(/^401: Unauthorized\. Check that the whole token was pasted/);
    expect(await page.getByRole('alert').textContent()).toContain('coinop.test');
  });

  it('says what a refused call needed, what the wallet has, and how to add credits', async () => {
    const token = await harness.t.createToken(3);
    const page = await harness.signedIn(token);
    await page.getByRole('link', { name: 'Tools', exact: true }).click();
    const tool = page.getByRole('region', { name: 'DNS lookup' });
    await tool.getByLabel('Domains or IP addresses').fill('example.com');
    await tool.getByRole('button', { name: 'Look up' }).click();
    const alert = tool.getByRole('alert');
    await expect
      .poll(() => alert.textContent())
      .toMatch(/^402: Insufficient credits\. This call needs 5 credits; the wallet has 3 credits\./);
    expect(await alert.textContent()).toContain('ask its operator to credit your wallet');
    expect(await alert.textContent()).toContain('payment link');
  });
});
