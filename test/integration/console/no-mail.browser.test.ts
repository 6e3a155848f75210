import { expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, useConsole } from '../../helpers/console-browser.js';

/**
 * The console on an instance that receives no e-mail (no SMTP listener, no relay), where mailbox webhooks are refused,
 * and sells no credits (no Stripe), where GET /recharge answers 501.
 */
describeInBrowser('the console where no e-mail arrives and no credits are sold', () => {
  const harness = useConsole('sqlite', { receivesMail: false });

  it('offers only scheduled webhooks, saying why, so no one pays for the refusal of a mailbox', async () => {
    const token = await harness.t.createToken(100);
    const page = await harness.signedIn(token);
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/webhook') sent.push(request.url());
    });
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.evaluate(() => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = '#/webhooks/new';
    });
    await page.getByRole('heading', { level: 1, name: 'New webhook' }).waitFor();

    const mailbox = page.getByLabel('Mailbox: deliver e-mail sent to the webhook’s address');
    const scheduled = page.getByLabel('Scheduled: call the URL on a cron schedule');
    // Once the page has read service.json (a request of its own, after the form is drawn).
    const note = page.getByTestId('no-inbound-mail');
    await note.waitFor();
    expect(await note.textContent()).toContain('receives no e-mail');
    expect(await mailbox.isDisabled()).toBe(true);
    await expect.poll(() => scheduled.isChecked()).toBe(true);
    await expectAccessible(page);

    // A scheduled one is created as anywhere else, for its credit.
    await page.getByLabel('Webhook ID').fill('nightly');
    await page.getByLabel('Callback URL').fill('https://hooks.example.com/nightly');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByTestId('webhook-created').waitFor();
    expect(sent).toHaveLength(1);
    await harness.t.deps.ledger.flush();
    const logs = await harness.t.inject({ method: 'GET', url: '/token/logs?n=100', headers: { 'x-token': token } });
    const posts = logs
      .json<{ logs: Array<{ method: string; path: string; cost: number }> }>()
      .logs.filter((entry) => entry.method === 'POST' && entry.path === '/webhook');
    expect(posts).toMatchObject([{ cost: 1 }]);
  });

  it('says that this instance sells no credits, instead of a payment button every click of which fails', async () => {
    const page = await harness.signedIn(await harness.t.createToken(10));
    const recharge = page.getByRole('region', { name: 'Recharge' });
    await expect.poll(() => recharge.getByTestId('recharge-not-sold').textContent()).toContain('sells no credits');
    expect(await recharge.getByRole('button', { name: 'Get a payment link' }).count()).toBe(0);
    await expectAccessible(page);
  });
});
