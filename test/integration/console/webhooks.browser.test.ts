import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, expectAccessible, screenshot, useConsole } from '../../helpers/console-browser.js';
import type { ConsoleHarness } from '../../helpers/console-browser.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import type { OutboundFixture } from '../../helpers/outbound-fixture.js';
import { STORE_KINDS } from '../../helpers/stores.js';
import { parseSchedule } from '../../../src/lib/cron/cron-rules.js';
import { balanceOf } from '../../helpers/app.js';

const MAIL_DOMAIN = 'hooks.coinop.test';
const MAILBOX = /^r_[a-z2-7]{16}@hooks\.coinop\.test$/;

/** The webhook API of one wallet, for setting up data the browser then shows. */
function api(harness: ConsoleHarness, token: string) {
  const send = async (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => {
    const res = await harness.t.inject({
      method,
      url,
      headers: { 'x-token': token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  return {
    create: (body: Record<string, unknown>) => send('POST', '/webhook', body),
    test: (id: string) => send('POST', `/webhook/${id}/test`),
    deliveries: (id: string) => send('GET', `/webhook/${id}/deliveries`),
    redeliver: (id: string, deliveryId: string) => send('POST', `/webhook/${id}/deliveries/${deliveryId}/redeliver`),
  };
}

async function openWebhooks(harness: ConsoleHarness, credits = 500): Promise<{ page: Page; token: string }> {
  const token = await harness.t.createToken(credits);
  const page = await harness.signedIn(token);
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
  return { page, token };
}

/** What page.evaluate sees of the page (this file is type-checked without the DOM library). */
interface BrowserWindow {
  location: { hash: string };
  document: { activeElement: { id: string; textContent: string | null } | null };
}

const go = async (page: Page, hash: string, heading: string) => {
  await page.evaluate((target) => {
    (globalThis as unknown as BrowserWindow).location.hash = target;
  }, hash);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
};

for (const kind of STORE_KINDS) {
  describeInBrowser(`the webhooks console on ${kind}`, () => {
    const outbound = useOutboundFixture();
    const harness = useConsole(kind, { env: { ...outbound.env, MAIL_DOMAIN } });

    it('creates an inbound-mail webhook and shows its address', async () => {
      const { page, token } = await openWebhooks(harness);
      await page.getByRole('link', { name: 'New webhook' }).click();
      await page.getByLabel('Webhook ID').fill('orders');
      await page.getByLabel('Callback URL').fill(outbound.url('/orders'));
      await page.getByRole('button', { name: 'Create webhook' }).click();
      // The address moves to the webhook's own page, which shows the create answer (address, secret once).
      await page.getByRole('heading', { level: 1, name: 'Webhook orders' }).waitFor();
      expect(new URL(page.url()).hash).toBe('#/webhooks/orders');
      const notice = page.getByTestId('webhook-created');
      const address = await notice.getByLabel('Copy address: value').inputValue();
      expect(address).toMatch(MAILBOX);
      expect(await notice.getByLabel('Copy signing secret: value').inputValue()).toMatch(/^whsec_/);
      // The summary below it, the create answer as stored, names the same address (nothing read again).
      expect(await page.getByRole('region', { name: 'Summary' }).getByLabel('Copy address: value').inputValue()).toBe(
        address,
      );
      // The address shown is the one the service keeps, and on the webhook's own page too.
      const [saved] = (await harness.t.inject({ method: 'GET', url: '/webhook', headers: { 'x-token': token } })).json()
        .webhooks;
      expect(saved.email).toBe(address);
      // Read again from the service when opened later: the same address; the secret is not shown again.
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Webhook orders' }).waitFor();
      await expect.poll(() => page.getByLabel('Copy address: value').inputValue()).toBe(address);
      expect(await page.getByLabel('Copy signing secret: value').count()).toBe(0);
    });

    it('sends a test delivery to the suite’s HTTPS receiver and shows the attempt', async () => {
      const { page, token } = await openWebhooks(harness);
      await api(harness, token).create({ webhookId: 'ping', url: outbound.url('/ping') });
      outbound.receiver().enqueue({ status: 202, body: 'accepted by the receiver' });
      await go(page, '#/webhooks/ping', 'Webhook ping');
      await page.getByRole('button', { name: 'Send a test delivery' }).click();
      await expect.poll(() => page.getByTestId('test-result').textContent()).toContain('test webhook delivered');
      expect(outbound.requestsTo('/ping')).toHaveLength(1);
      await page.getByRole('link', { name: 'See the attempt' }).click();
      const row = page.getByTestId('delivery-list').locator('tbody tr');
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.textContent()).toMatch(/test.*success.*HTTP 202/);
      await row.getByRole('link').click();
      const attempt = page.getByTestId('attempts').locator('tbody tr');
      await expect.poll(() => attempt.count()).toBe(1);
      expect(await attempt.textContent()).toMatch(/HTTP 202.*\d+ ms.*accepted by the receiver/);
    });

    if (kind === 'sqlite') editingTests(harness, outbound);
  });
}

/** Editing, previews, schedules and deliveries: on SQLite only, in the same browser and app as its issue flows. */
function editingTests(harness: ConsoleHarness, outbound: OutboundFixture): void {
  it('previews the payload with the service’s formatter, and changes it with the format; template errors show live', async () => {
    const { page } = await openWebhooks(harness);
    await go(page, '#/webhooks/new', 'New webhook');
    const preview = page.getByTestId('payload-preview');
    await expect.poll(() => preview.textContent()).toContain('"externalMessageId"');
    await page.getByLabel('Format').selectOption('slack');
    await expect
      .poll(() => preview.textContent())
      .toContain('"text": "*Invoice 2026-0412 is ready*\\nFrom: Ann Lee &lt;ann.lee@example.com&gt;');
    await page.getByLabel('Format').selectOption('pagerduty');
    await expect.poll(() => preview.textContent()).toContain('"event_action": "trigger"');
    await page.getByLabel('Format').selectOption('custom');
    await page.getByLabel('Template (JSON)').fill('{"who": "{{from.name}}", "files": "{{attachments[-1].filename}}"}');
    await expect.poll(() => preview.textContent()).toContain('"files": "invoice-2026-0412.pdf"');
    await page.getByLabel('Include attachments').uncheck();
    await expect.poll(() => preview.textContent()).toContain('"files": ""');
    await page.getByLabel('Template (JSON)').fill('{"who": "{{from.name"}');
    await expect.poll(() => page.getByTestId('preview-error').textContent()).toMatch(/^Invalid template: /);
    await page.getByLabel('Template (JSON)').fill('{"who": ');
    await expect.poll(() => page.getByTestId('preview-error').textContent()).toMatch(/^Template: /);
    await expectAccessible(page);
  });

  it('explains a cron: a description and the next five runs in the zone, the service’s error for a bad one', async () => {
    const { page } = await openWebhooks(harness);
    await go(page, '#/webhooks/new', 'New webhook');
    await page.getByLabel('Scheduled: call the URL on a cron schedule').check();
    await page.getByLabel('Cron expression').fill('0 9 * * 1-5');
    await page.getByLabel('Time zone').fill('Europe/Paris');
    await expect
      .poll(() => page.getByTestId('cron-description').textContent())
      .toContain('At 09:00, Monday through Friday');
    const runs = page.getByTestId('next-runs').locator('tbody tr');
    await expect.poll(() => runs.count()).toBe(5);
    const times = await runs
      .locator('time')
      .evaluateAll((nodes) => nodes.map((node) => [node.getAttribute('datetime'), node.textContent]));
    // The service's own next runs, shown at 09:00 Paris time on weekdays.
    const parsed = parseSchedule('0 9 * * 1-5', 'Europe/Paris');
    if (!parsed.ok) throw new Error(parsed.error);
    let after = new Date();
    for (const [iso, text] of times) {
      const next = parsed.schedule.nextAfter(after);
      expect(iso).toBe(next?.toISOString());
      expect(text).toMatch(/^(Mon|Tue|Wed|Thu|Fri), .* 09:00:00 CES?T$/);
      after = next as Date;
    }
    await expectAccessible(page);
    await page.getByLabel('Cron expression').fill('61 9 * * *');
    const expected = parseSchedule('61 9 * * *', 'Europe/Paris');
    expect(expected.ok).toBe(false);
    await expect.poll(() => page.getByTestId('cron-error').textContent()).toBe(expected.ok ? '' : expected.error);
    await page.getByLabel('Cron expression').fill('0 9 * * 1-5');
    await page.getByLabel('Time zone').fill('Mars/Olympus');
    await expect.poll(() => page.getByTestId('cron-error').textContent()).toContain('unknown IANA time zone');
    // Chromium's ICU knows tzdata's `Factory`; the service's does not: refused in the page too.
    await page.getByLabel('Time zone').fill('Europe/Paris');
    await expect.poll(() => page.getByTestId('cron-error').count()).toBe(0);
    await page.getByLabel('Time zone').fill('Factory');
    await expect.poll(() => page.getByTestId('cron-error').textContent()).toContain('unknown IANA time zone');
  });

  it('refuses in the page, for nothing, callback URLs the service refuses though the browser parses them', async () => {
    const { page, token } = await openWebhooks(harness);
    await go(page, '#/webhooks/new', 'New webhook');
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/webhook') sent.push(request.url());
    });
    await page.getByLabel('Webhook ID').fill('typo');
    for (const [url, words] of [
      // Chromium reads the host as `exa%20mple.com`; Node's parser (the service's) refuses it.
      ['https://exa mple.com/hook', 'Invalid url: must be a valid URL'],
      ['https://exa%20mple.com/hook', 'Invalid url: must be a valid URL'],
      [`https://example.com/${'a'.repeat(2100)}`, 'Invalid url: must be at most 2048 characters'],
    ] as const) {
      await page.getByLabel('Callback URL').fill(url);
      await expect.poll(() => page.getByTestId('webhook-problem').textContent()).toBe(words);
      await page.getByLabel('Callback URL').press('Enter');
    }
    expect(sent).toEqual([]);
    expect(await balanceOf(harness.t, token)).toBe(499); // the list's 1 credit only
  });

  it('creates a webhook by keyboard alone', async () => {
    const { page, token } = await openWebhooks(harness);
    const focused = () =>
      page.evaluate(() => {
        const active = (globalThis as unknown as BrowserWindow).document.activeElement;
        return active?.id || active?.textContent?.trim();
      });
    for (let presses = 0; (await focused()) !== 'New webhook'; presses++) {
      expect(presses).toBeLessThan(20);
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'New webhook' }).waitFor();
    for (let presses = 0; (await focused()) !== 'webhook-id'; presses++) {
      expect(presses).toBeLessThan(20);
      await page.keyboard.press('Tab');
    }
    await page.keyboard.type('by-keyboard');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('webhook-url');
    await page.keyboard.type(outbound.url('/keyboard'));
    await page.keyboard.press('Enter');
    await page.getByTestId('webhook-created').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Webhook by-keyboard' }).waitFor();
    const listed = (await harness.t.inject({ method: 'GET', url: '/webhook', headers: { 'x-token': token } })).json()
      .webhooks;
    expect(listed.map((view: { webhookId: string }) => view.webhookId)).toEqual(['by-keyboard']);
  });

  it('redelivers a delivery: a new attempt, charged what the delivery cost', async () => {
    const { page, token } = await openWebhooks(harness);
    const hooks = api(harness, token);
    await hooks.create({ webhookId: 'again', url: outbound.url('/again') });
    outbound.receiver().enqueue({ status: 503, body: 'busy, try later' });
    expect((await hooks.test('again')).success).toBe(false);
    const [delivery] = (await hooks.deliveries('again')).deliveries;
    await go(page, `#/webhooks/again/deliveries/${delivery.id}`, `Delivery ${delivery.id}`);
    const attempts = page.getByTestId('attempts').locator('tbody tr');
    await expect.poll(() => attempts.count()).toBe(1);
    expect(await attempts.first().textContent()).toContain('busy, try later');
    expect(await page.getByText('Costs 1 credit').count()).toBe(1);
    await page.getByRole('button', { name: 'Redeliver' }).click();
    await expect
      .poll(() => page.getByTestId('redeliver-result').textContent())
      .toContain('Attempt 2: webhook delivered');
    await expect.poll(() => attempts.count()).toBe(2);
    expect(await attempts.nth(1).textContent()).toMatch(/redelivery.*HTTP 200/);
    expect(await page.getByText('Charged 1 credit').count()).toBe(1);
    expect(outbound.requestsTo('/again')).toHaveLength(2);
  });

  it('lists, edits and shows deliveries with realistic data, accessibly (screenshots)', async () => {
    const { page, token } = await openWebhooks(harness, 2000);
    const hooks = api(harness, token);
    await hooks.create({ webhookId: 'support-inbox', url: outbound.url('/slack/T024BE7LD'), format: 'slack' });
    await hooks.create({
      webhookId: 'invoices',
      url: outbound.url('/erp/invoices'),
      format: 'custom',
      template: {
        source: 'mail',
        vendor: '{{from.name|from.email}}',
        subject: '{{subject}}',
        pdf: '{{attachments[0].filename}}',
      },
      headers: { authorization: 'Bearer erp-7f3a' },
      retry: { attempts: 3 },
    });
    await hooks.create({
      webhookId: 'daily-report',
      url: outbound.url('/reports/daily'),
      schedule: { cron: '0 9 * * 1-5', timezone: 'Europe/Paris' },
    });
    await hooks.create({
      webhookId: 'nightly-sync',
      url: outbound.url('/sync'),
      schedule: { cron: '30 2 * * *', timezone: 'America/New_York' },
    });
    outbound
      .receiver()
      .enqueue(
        { status: 200, body: '{"ok":true}' },
        { status: 500, body: 'upstream timeout' },
        { status: 200, body: '{"ok":true}' },
      );
    await hooks.test('support-inbox');
    await hooks.test('support-inbox');
    await hooks.test('support-inbox');
    await hooks.test('daily-report');
    const failed = (await hooks.deliveries('support-inbox')).deliveries.find(
      (delivery: { status: string }) => delivery.status === 'failure',
    );
    await hooks.redeliver('support-inbox', failed.id);

    await page.getByRole('button', { name: 'Refresh' }).click();
    const rows = page.getByTestId('webhook-list').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(4);
    await expect.poll(() => rows.filter({ hasText: 'support-inbox' }).textContent()).toContain('success');
    expect(await rows.filter({ hasText: 'daily-report' }).textContent()).toMatch(
      /scheduled.*0 9 \* \* 1-5.*Europe\/Paris.*no run yet.*in /,
    );
    await expectAccessible(page);
    await screenshot(page, 'webhooks');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page);
    await page.emulateMedia({ colorScheme: 'light' });

    // Edit, mailbox mode: the custom template's preview; a save sends only what changed (headers stay).
    await go(page, '#/webhooks/invoices', 'Webhook invoices');
    await expect
      .poll(() => page.getByTestId('payload-preview').textContent())
      .toContain('"pdf": "invoice-2026-0412.pdf"');
    await expectAccessible(page);
    await page.getByLabel('Callback URL').fill(outbound.url('/erp/invoices/v2'));
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const saved = (
      await harness.t.inject({ method: 'GET', url: '/webhook/invoices', headers: { 'x-token': token } })
    ).json();
    expect(saved).toMatchObject({
      webhook: outbound.url('/erp/invoices/v2'),
      headers: { authorization: '***' },
      format: 'custom',
      retry: { attempts: 3 },
    });

    // Edit, scheduled mode: the cron explainer and the run payload.
    await go(page, '#/webhooks/daily-report', 'Webhook daily-report');
    await expect.poll(() => page.getByTestId('next-runs').locator('tbody tr').count()).toBe(5);
    await expect
      .poll(() => page.getByTestId('payload-preview').textContent())
      .toContain('"type": "scheduled_webhook_run"');
    await expectAccessible(page);
    await screenshot(page, 'webhook-edit');

    // Rotating the secret asks first, then shows the new one.
    await page.getByRole('button', { name: 'Rotate signing secret' }).click();
    await page.getByRole('button', { name: 'Rotate', exact: true }).click();
    await expect.poll(() => page.getByLabel('Copy new secret: value').inputValue()).toMatch(/^whsec_/);

    await go(page, '#/webhooks/support-inbox/deliveries', 'Deliveries of support-inbox');
    await expect.poll(() => page.getByTestId('delivery-list').locator('tbody tr').count()).toBe(3);
    // The failed one, redelivered: two attempts, the last one answered 200.
    const redelivered = page.getByTestId('delivery-list').locator('tbody tr', { hasText: failed.id });
    expect(await redelivered.locator('td.num').textContent()).toBe('2');
    await expectAccessible(page);
    await screenshot(page, 'deliveries');
    await redelivered.getByRole('link').click();
    const attempts = page.getByTestId('attempts').locator('tbody tr');
    await expect.poll(() => attempts.count()).toBe(2);
    expect(await attempts.nth(0).textContent()).toMatch(/HTTP 500.*upstream timeout/);
    expect(await attempts.nth(1).textContent()).toMatch(/redelivery.*HTTP 200/);
    await expectAccessible(page);

    // Delete asks first; Escape answers no.
    await go(page, '#/webhooks/nightly-sync', 'Webhook nightly-sync');
    await page.getByRole('button', { name: 'Delete webhook' }).click();
    await page.keyboard.press('Escape');
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    // Deleting costs its 1 credit only: the list is read (1 more) when asked for.
    await page.getByRole('status').filter({ hasText: 'Deleted nightly-sync.' }).waitFor();
    // Nothing paid is offered for a webhook that is gone: each would be a charged 404.
    for (const name of ['Send a test delivery', 'Rotate signing secret', 'Save changes'])
      await expect.poll(() => page.getByRole('button', { name }).count(), { message: name }).toBe(0);
    expect(await page.getByRole('heading', { name: 'Edit' }).count()).toBe(0);
    await page.getByRole('link', { name: 'All webhooks' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await expect.poll(() => page.getByTestId('webhook-list').locator('tbody tr').count()).toBe(3);
  });
}
