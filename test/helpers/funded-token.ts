import { request } from 'undici';
import type { Dispatcher } from 'undici';
import { sha256Hex } from '../../src/lib/hash.js';

/**
 * A new token on a running service (`url`), credited `amount` through the operator API (`ADMIN_TOKEN` must be
 * set there). Throws when either call is refused: a 429 from the creation limit would otherwise hand the test an
 * invalid token.
 */
export async function fundedToken(
  url: string,
  options: { adminToken: string; amount: number; dispatcher?: Dispatcher },
): Promise<string> {
  const dispatcher = options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher };
  const created = await request(`${url}/token`, {
    method: 'POST',
    body: 'token=new',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    ...dispatcher,
  });
  const token = await created.body.text();
  if (created.statusCode !== 200) throw new Error(`token creation answered ${created.statusCode}: ${token}`);
  const credit = await request(`${url}/manage/wallets/${sha256Hex(token)}/credit`, {
    method: 'POST',
    body: JSON.stringify({ amount: options.amount }),
    headers: { 'content-type': 'application/json', 'x-admin-token': options.adminToken },
    ...dispatcher,
  });
  const answer = await credit.body.text();
  if (credit.statusCode !== 200) throw new Error(`crediting the wallet answered ${credit.statusCode}: ${answer}`);
  return token;
}
