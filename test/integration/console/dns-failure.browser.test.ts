/**
 * A DNS lookup whose resolver cannot be reached: the console shows a failure (what failed and what it was charged),
 * never "No records found.", while the service's status and cost for the call stay what they are.
 */
import { createSocket } from 'node:dgram';
import { beforeAll, expect, it } from 'vitest';
import { describeInBrowser, expectAccessible, screenshot, useConsole } from '../../helpers/console-browser.js';
import { balanceOf } from '../../helpers/app.js';

/** A loopback UDP port nothing listens on: queries to it are refused at once (UNREACHABLE). */
async function closedUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  const port = await new Promise<number>((resolve) =>
    socket.bind(0, '127.0.0.1', () => resolve(socket.address().port)),
  );
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

describeInBrowser('a DNS lookup whose resolver is unreachable', () => {
  const env: Record<string, string> = {};
  beforeAll(async () => {
    env.DNS_SERVERS = `127.0.0.1:${await closedUdpPort()}`;
  });
  const harness = useConsole('sqlite', { env });

  it('shows a failure, what failed and what it cost, not an empty result', async () => {
    const token = await harness.t.createToken(100);
    const page = await harness.signedIn(token);
    await page.getByRole('link', { name: 'Tools', exact: true }).click();
    const tool = page.getByRole('region', { name: 'DNS lookup' });
    await tool.getByLabel('Domains or IP addresses').fill('example.com');
    for (const option of [
      'Reverse lookup (PTR) of the addresses found',
      'E-mail security: MX provider, SPF, DMARC, DKIM and a score',
      'TLS certificate of port 443',
    ]) {
      await tool.getByRole('checkbox', { name: option }).uncheck();
    }
    await tool.getByText('Resolvers and timing').click();
    await tool.getByLabel('Timeout per query (ms)').fill('1000');
    await tool.getByLabel('Retries').fill('0');
    await tool.getByRole('button', { name: 'Look up' }).click();
    const failed = tool.getByTestId('dns-failed');
    await expect
      .poll(() => failed.textContent(), { timeout: 15_000 })
      .toMatch(/^Lookup failed: the resolver did not answer \(UNREACHABLE\)/);
    expect(await failed.textContent()).toContain('Charged 5 credits');
    expect(await tool.getByText('No records found.').count()).toBe(0);
    expect(await tool.getByTestId('dns-summary').textContent()).toMatch(/^0 of 1 lookup succeeded, 1 failed/);
    // The call's own status and cost are the service's, unchanged: 200 and 5 credits.
    expect(await balanceOf(harness.t, token)).toBe(95);
    await expectAccessible(page);
    await screenshot(page, 'tools-dns-failed');
  });
});
