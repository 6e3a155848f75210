import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, expectAccessible, screenshot, useConsole } from '../../helpers/console-browser.js';
import type { ConsoleHarness } from '../../helpers/console-browser.js';
import { balanceOf } from '../../helpers/app.js';
import { startDnsServer } from '../../helpers/dns-server.js';
import type { TestDnsServer } from '../../helpers/dns-server.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';
import type { ScriptedResponse } from '../../helpers/https-receiver.js';
import { TEST_NETS, ZONE } from '../dns/route-fixtures.js';
import { RICH_PAGE, ROBOTS_TXT } from '../../fixtures/metadata-pages.js';

async function openTool(harness: ConsoleHarness, token: string, tool: string): Promise<Page> {
  const page = await harness.signedIn(token);
  await page.getByRole('link', { name: 'Tools', exact: true }).click();
  await page.getByRole('navigation', { name: 'Tools' }).getByRole('link', { name: tool }).click();
  await page.getByRole('heading', { name: tool, level: 2 }).waitFor();
  return page;
}

describeInBrowser('the tools page', () => {
  // The suite's DNS server answers every name (DNS_SERVERS); the HTTPS receiver serves a page, its CA trusted and
  // loopback allowed through the explicit setting (OUTBOUND_ALLOW_CIDRS), as the DNS and metadata tests do.
  const outbound = useOutboundFixture();
  const env: Record<string, string> = {};
  let dns: TestDnsServer | undefined;
  beforeAll(async () => {
    dns = await startDnsServer({ zone: ZONE });
    Object.assign(env, outbound.env, {
      DNS_SERVERS: dns.address,
      OUTBOUND_ALLOW_CIDRS: ['127.0.0.0/8', ...TEST_NETS].join(','),
    });
    outbound.receiver().respondWith((request): ScriptedResponse => {
      if (request.path === '/robots.txt') return { headers: { 'content-type': 'text/plain' }, body: ROBOTS_TXT };
      if (request.path === '/rich')
        return { headers: { 'content-type': 'text/html; charset=utf-8', server: 'test-site' }, body: RICH_PAGE };
      return { status: 404, body: 'not here' };
    });
  });
  afterAll(async () => {
    await dns?.close();
  });
  const harness = useConsole('sqlite', { env });

  it("looks a domain up on the suite's DNS server and shows its records, e-mail findings and the raw JSON", async () => {
    const token = await harness.t.createToken(100);
    const page = await openTool(harness, token, 'DNS lookup');
    const tool = page.getByRole('region', { name: 'DNS lookup' });
    await expect.poll(() => tool.getByText('Costs 5 credits').count()).toBe(1);
    await expectAccessible(page);
    await tool.getByLabel('Domains or IP addresses').fill('example.test');
    for (const type of ['SOA', 'CAA']) await tool.getByRole('checkbox', { name: type, exact: true }).check();
    // Loopback's port 443 is not the domain's: no TLS inspection here.
    await tool.getByRole('checkbox', { name: 'TLS certificate of port 443' }).uncheck();
    await tool.getByRole('button', { name: 'Look up' }).click();
    await expect
      .poll(() => tool.getByTestId('dns-summary').textContent())
      .toBe('1 of 1 lookup succeeded; types A, AAAA, MX, CNAME, TXT, NS, SOA, CAA.');
    await expect.poll(() => tool.getByText(/Charged 5 credits/).count()).toBe(1);
    const cells = (name: string) =>
      tool.getByRole('table', { name }).locator('tbody tr').first().locator('td').allTextContents();
    expect(await cells('A records of example.test')).toEqual(['192.0.2.10', '300']);
    expect(await cells('MX records of example.test')).toEqual(['10', 'aspmx.l.google.com', '3600']);
    expect(await cells('TXT records of example.test')).toEqual(['v=spf1 -all', '120']);
    expect(await cells('SOA records of example.test')).toEqual([
      'ns1.example.test',
      'hostmaster.example.test',
      '7',
      '7200',
      '900',
      '1209600',
      '300',
      '900',
    ]);
    expect(await cells('CAA records of example.test')).toEqual(['0', 'issue', 'letsencrypt.org', '3600']);
    const security = tool.getByRole('region', { name: 'E-mail security of example.test' });
    expect(await security.getByTestId('email-score').textContent()).toBe('80');
    expect(await security.textContent()).toContain('Google Workspace');
    expect(await security.textContent()).toContain('No DKIM records detected');
    expect(await tool.getByText('Reverse names:').locator('..').textContent()).toContain('host.example.test');
    await expectAccessible(page);
    await screenshot(page, 'tools');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page);
    await page.emulateMedia({ colorScheme: 'light' });
    await tool.getByText('Raw JSON').click();
    const raw = JSON.parse((await tool.locator('details.json pre').textContent()) ?? '{}');
    expect(raw.results[0].lookupResult.records.A).toEqual([{ type: 'A', address: '192.0.2.10', ttl: 300 }]);
    // Signing in and the wallet page it opens are free: the lookup's 5 credits only.
    expect(await balanceOf(harness.t, token)).toBe(100 - 5);
  });

  it('refuses in the page what the service would refuse, for nothing; shows the service’s message for what only it can judge', async () => {
    const token = await harness.t.createToken(100);
    const page = await openTool(harness, token, 'DNS lookup');
    const tool = page.getByRole('region', { name: 'DNS lookup' });
    const lookUp = tool.getByRole('button', { name: 'Look up' });
    await tool.getByLabel('Domains or IP addresses').fill('example.test');
    await tool.getByText('Resolvers and timing').click();
    // The service's own bounds, checked before sending: the button stays disabled, nothing is charged.
    await tool.getByLabel('Timeout per query (ms)').fill('10');
    await expect
      .poll(() => tool.getByTestId('dns-problem').textContent())
      .toBe('Invalid timeout: must be an integer from 1000 to 60000');
    expect(await lookUp.isDisabled()).toBe(true);
    await tool.getByLabel('Timeout per query (ms)').fill('');
    await tool.getByLabel('Domains or IP addresses').fill('example.test, bad..name');
    await expect
      .poll(() => tool.getByTestId('dns-problem').textContent())
      .toBe('"bad..name" is not a valid domain name or IP address (domains[1])');
    expect(await lookUp.isDisabled()).toBe(true);
    // A resolver's syntax needs no network: a port past 65535 is refused here too.
    await tool.getByLabel('Domains or IP addresses').fill('example.test');
    await tool.getByLabel('Propagation resolvers').fill('1.1.1.1, 1.2.3.4:99999');
    await expect
      .poll(() => tool.getByTestId('dns-problem').textContent())
      .toBe('Invalid propagationServers[1]: must be an IP address or host name, optionally with :port');
    expect(await lookUp.isDisabled()).toBe(true);
    expect(await balanceOf(harness.t, token)).toBe(100);
    // A private resolver is the service's to refuse (its address policy): its words, and the 5 credits the contract charges (docs/contract.md#costs).
    await tool.getByLabel('Domains or IP addresses').fill('example.test');
    await tool.getByRole('checkbox', { name: 'Check propagation across public resolvers' }).check();
    await tool.getByLabel('Propagation resolvers').fill('10.0.0.1');
    await lookUp.click();
    await expect.poll(() => tool.getByRole('alert').textContent()).toMatch(/^400: /);
    await expect.poll(() => tool.getByText(/Charged 5 credits/).count()).toBe(1);
  });

  it('reads a page’s metadata from the suite’s HTTPS receiver, showing the cost of the chosen level before it runs', async () => {
    const token = await harness.t.createToken(1000);
    const page = await openTool(harness, token, 'URL metadata');
    const tool = page.getByRole('region', { name: 'URL metadata' });
    await expect.poll(() => tool.getByText('Costs 55 credits').count()).toBe(1);
    await tool.getByLabel('AI summary').selectOption('short');
    await expect.poll(() => tool.getByText('Costs 800 credits').count()).toBe(1);
    await tool.getByLabel('AI summary').selectOption('none');
    await expect.poll(() => tool.getByText('Costs 55 credits').count()).toBe(1);
    await tool.getByLabel('Page URL').fill(outbound.url('/rich'));
    await tool.getByRole('button', { name: 'Read metadata' }).click();
    await expect
      .poll(() => tool.getByTestId('metadata-title').textContent(), { timeout: 10_000 })
      .toBe('Acme Rockets - Reusable launch for small satellites');
    await expect.poll(() => tool.getByText(/Charged 55 credits/).count()).toBe(1);
    expect(await tool.getByText('Acme builds reusable rockets for small satellites.', { exact: true }).count()).toBe(1);
    // The preview image is a link to its address, never loaded.
    const image = tool.getByRole('link', { name: /\/img\/og\.png$/ });
    expect(await image.getAttribute('href')).toMatch(/^https:\/\/.+\/img\/og\.png$/);
    expect(await image.getAttribute('rel')).toContain('noreferrer');
    expect(await page.locator('img').count()).toBe(0);
    expect(outbound.requestsTo('/img/og.png')).toHaveLength(0);
    await expectAccessible(page);
  });

  it('refuses a page URL the service would refuse in the page, in its words, for nothing', async () => {
    const token = await harness.t.createToken(1000);
    const page = await openTool(harness, token, 'URL metadata');
    const tool = page.getByRole('region', { name: 'URL metadata' });
    const read = tool.getByRole('button', { name: 'Read metadata' });
    expect(await read.isDisabled()).toBe(true); // nothing typed yet
    await tool.getByLabel('Page URL').fill('example.com/page');
    await expect
      .poll(() => tool.getByTestId('metadata-problem').textContent())
      .toBe('Invalid url: must be an absolute http or https URL');
    expect(await read.isDisabled()).toBe(true);
    await tool.getByLabel('Page URL').fill('https://user:secret@example.com/');
    await expect
      .poll(() => tool.getByTestId('metadata-problem').textContent())
      .toBe('Invalid url: must not contain credentials');
    // Enter in the field submits the form: still nothing sent.
    await tool.getByLabel('Page URL').press('Enter');
    expect(await read.isDisabled()).toBe(true);
    await tool.getByLabel('Page URL').fill(outbound.url('/rich'));
    await expect.poll(() => tool.getByTestId('metadata-problem').count()).toBe(0);
    expect(await read.isDisabled()).toBe(false);
    await expectAccessible(page);
    expect(await balanceOf(harness.t, token)).toBe(1000);
  });

  it('makes links of http(s) URLs only, and shows any other URL of an answer as text', async () => {
    // An answer as an older or another service might give it: script URLs where the console shows links.
    const answer = {
      success: true,
      data: {
        seo: { title: 'Script Corp' },
        technical: { finalUrl: ' JaVaScRiPt:alert(1)', statusCode: 200 },
        twitterCard: { image: 'java\tscript:alert(2)' },
        social: {
          x: 'data:text/html,<script>alert(3)</script>',
          github: 'https://github.com/script-corp',
          favicon: 'https://script.test/favicon.ico',
        },
        links: { internal: { total: 0 }, external: { total: 1 } },
      },
    };
    const token = await harness.t.createToken(1000);
    const page = await openTool(harness, token, 'URL metadata');
    const tool = page.getByRole('region', { name: 'URL metadata' });
    await page.route('**/url-to-metadata', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        headers: { 'x-cost': '55', 'x-balance': '900' },
        body: JSON.stringify(answer),
      }),
    );
    await tool.getByLabel('Page URL').fill('https://script.test/');
    await tool.getByRole('button', { name: 'Read metadata' }).click();
    await expect.poll(() => tool.getByTestId('metadata-title').textContent()).toBe('Script Corp');
    const hrefs = await tool.locator('a[href]').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(hrefs).toEqual(['https://github.com/script-corp']);
    for (const shown of ['JaVaScRiPt:alert(1)', 'data:text/html,<script>alert(3)</script>'])
      expect(await tool.getByText(shown, { exact: true }).count()).toBe(1);
  });

  it("shows the caller's IP for 1 credit", async () => {
    const token = await harness.t.createToken(100);
    const page = await openTool(harness, token, 'My IP');
    const tool = page.getByRole('region', { name: 'My IP' });
    await expect.poll(() => tool.getByText('Costs 1 credit').count()).toBe(1);
    await tool.getByRole('button', { name: 'Show my IP' }).click();
    await expect.poll(() => tool.getByTestId('myip-address').textContent()).toBe('127.0.0.1');
    await expect.poll(() => tool.getByText(/Charged 1 credit/).count()).toBe(1);
    expect(await tool.getByText('User agent').locator('..').textContent()).toContain('Chrome');
    await expectAccessible(page);
  });

  it('shows propagation per resolver and the TLS certificate (an answer shaped as the service gives it)', async () => {
    // Propagation asks public resolvers only, and TLS inspection a public port 443: neither can reach the suite's
    // loopback peers, so this page gets a recorded answer of that shape instead of the service's.
    const answer = {
      summary: {
        totalDomains: 1,
        successfulLookups: 1,
        failedLookups: 0,
        recordTypes: ['A'],
        propagationCheckEnabled: true,
      },
      results: [
        {
          domain: 'shop.example',
          lookupResult: {
            domain: 'shop.example',
            timestamp: '2026-06-01T12:00:00.000Z',
            records: { A: [{ type: 'A', address: '198.51.100.7', ttl: 300 }] },
            ssl_certificate_expires_at: '2026-08-30T00:00:00.000Z',
            ssl_days_until_expiry: 89,
            ssl_issuer: "Let's Encrypt R11",
            ssl_subject_alt_names: ['shop.example', 'www.shop.example'],
            ssl_chain_valid: true,
          },
          propagationResults: [
            {
              domain: 'shop.example',
              recordType: 'A',
              timestamp: '2026-06-01T12:00:00.000Z',
              servers: {
                '8.8.8.8': {
                  records: [{ type: 'A', address: '198.51.100.7', ttl: 300 }],
                  responseTime: 21,
                  location: 'Google, US',
                  matches: true,
                },
                '9.9.9.9': { records: [], responseTime: 5000, error: 'TIMEOUT', location: 'Quad9, CH', matches: false },
              },
              isPropagated: false,
              consistencyPercentage: 50,
            },
          ],
        },
      ],
    };
    const token = await harness.t.createToken(100);
    const page = await openTool(harness, token, 'DNS lookup');
    await page.route('**/dns-lookup', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        headers: { 'x-cost': '5', 'x-balance': '90' },
        body: JSON.stringify(answer),
      }),
    );
    await page.getByLabel('Domains or IP addresses').fill('shop.example');
    await page.getByRole('checkbox', { name: 'Check propagation across public resolvers' }).check();
    await page.getByRole('button', { name: 'Look up' }).click();
    const rows = page.getByRole('table', { name: 'A answers per resolver' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).locator('td').allTextContents()).toEqual([
      '8.8.8.8',
      'Google, US',
      '198.51.100.7',
      'yes',
      '21',
    ]);
    expect(await rows.nth(1).locator('td').allTextContents()).toEqual([
      '9.9.9.9',
      'Quad9, CH',
      'TIMEOUT',
      'no',
      '5000',
    ]);
    expect(await page.getByRole('region', { name: 'Propagation of A' }).getByRole('heading').textContent()).toBe(
      'Propagation of A: 50 % consistent not everywhere yet',
    );
    const tls = page.getByRole('region', { name: 'TLS certificate of shop.example' });
    expect(await tls.textContent()).toContain("Let's Encrypt R11");
    expect(await tls.textContent()).toContain('(in 89 days)');
    await expectAccessible(page);
  });

  it('runs a lookup with the keyboard alone', async () => {
    const token = await harness.t.createToken(100);
    const page = await openTool(harness, token, 'DNS lookup');
    // What has focus: a button's text, or the label around a checkbox.
    const focused = () =>
      page.evaluate(
        () => (document.activeElement?.closest('label') ?? document.activeElement)?.textContent?.trim() ?? '',
      );
    const tabTo = async (name: string) => {
      for (let step = 0; step < 30 && (await focused()) !== name; step++) await page.keyboard.press('Tab');
      expect(await focused()).toBe(name);
    };
    await page.getByLabel('Domains or IP addresses').focus();
    await page.keyboard.type('www.example.test');
    // TLS inspection off (it would probe the test network's port 443, off this machine), then the button.
    await tabTo('TLS certificate of port 443');
    await page.keyboard.press('Space');
    expect(await page.getByRole('checkbox', { name: 'TLS certificate of port 443' }).isChecked()).toBe(false);
    await tabTo('Look up');
    await page.keyboard.press('Enter');
    await expect
      .poll(() =>
        page.getByRole('table', { name: 'CNAME records of www.example.test' }).locator('td').first().textContent(),
      )
      .toBe('edge.example.test');
  });
});
