import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInBrowser, useConsole } from '../../helpers/console-browser.js';
import { useOutboundFixture } from '../../helpers/outbound-fixture.js';

const ADMIN_TOKEN = 'operator-secret-0123456789';
const PHONE = { width: 390, height: 844 };

/** What page.evaluate sees of the page (this file is type-checked without the DOM library). */
interface BrowserWindow {
  location: { hash: string };
  document: { documentElement: { scrollWidth: number } };
}

/** Opens `hash` at phone width once its heading shows; the page's width as laid out. */
async function widthAt(page: Page, hash: string, heading: string): Promise<number> {
  await page.setViewportSize(PHONE);
  await page.evaluate((target) => {
    (globalThis as unknown as BrowserWindow).location.hash = target;
  }, hash);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await page.waitForLoadState('networkidle');
  return page.evaluate(() => (globalThis as unknown as BrowserWindow).document.documentElement.scrollWidth);
}

describeInBrowser('the console at a phone’s width (390 px)', () => {
  const outbound = useOutboundFixture();
  const harness = useConsole('sqlite', { env: { ...outbound.env, MAIL_DOMAIN: 'hooks.coinop.test', ADMIN_TOKEN } });

  it('lays a mailbox webhook and the operator’s wallet list out within the screen, nothing sideways', async () => {
    const token = await harness.t.createToken(50);
    const created = await harness.t.inject({
      method: 'POST',
      url: '/webhook',
      headers: { 'x-token': token, 'content-type': 'application/json' },
      payload: JSON.stringify({ webhookId: 'on-a-phone', url: outbound.url('/phone') }),
    });
    expect(created.statusCode, created.body).toBe(200);
    const page = await harness.signedIn(token, ADMIN_TOKEN);
    expect(await widthAt(page, '#/webhooks/on-a-phone', 'Webhook on-a-phone')).toBeLessThanOrEqual(PHONE.width);
    expect(await widthAt(page, '#/operator', 'Operator')).toBeLessThanOrEqual(PHONE.width);
  });
});
