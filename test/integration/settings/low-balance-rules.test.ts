import { beforeEach, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { useTestApp } from '../../helpers/use-test-app.js';
import {
  emailProblem,
  thresholdProblem,
  webhookContentProblem,
  webhookUrlProblem,
} from '../../../src/features/settings/low-balance-rules.js';
import type { LowBalanceWebhookFields } from '../../../src/features/settings/low-balance-rules.js';

// The console refuses a low-balance update in the page with these rules (console/src/components/low-balance-draft.ts):
// each case must get from the running service exactly the answer the rules predict, else the page would either let a
// refused (and charged) call through or refuse one the service takes.
const THRESHOLDS = [0, 50, 1e12, 1e12 + 1];
const EMAILS = [
  'ops@example.com',
  'first.last+tag@mail.example.co.uk',
  'nope',
  'a@b',
  'ops@exa_mple.com',
  'two@@example.com',
  'ü@example.com',
  `${'x'.repeat(243)}@example.com`,
  `${'x'.repeat(244)}@example.com`,
];
const HOOK = 'https://hooks.example.com/low-balance';
const WEBHOOKS: LowBalanceWebhookFields[] = [
  { url: HOOK },
  { url: 'http://hooks.example.com/low-balance' },
  { url: 'https://user:secret@hooks.example.com/' },
  { url: 'not a url' },
  { url: 'ftp://hooks.example.com/' },
  { url: HOOK, headers: { Host: 'other.example' } },
  { url: HOOK, headers: { 'bad header': 'x' } },
  { url: HOOK, format: 'pagerduty' },
  { url: HOOK, format: 'pagerduty', options: { routing_key: 'R0UTINGKEY' } },
  { url: HOOK, format: 'fax' },
  { url: HOOK, format: 'custom', template: { text: '{{wallet' } },
  { url: HOOK, format: 'slack', headers: { Authorization: 'Bearer x' } },
];

describeEachStore('low-balance rules shared with the console', (kind) => {
  const get = useTestApp(kind);
  let token: string;
  beforeEach(async () => {
    token = await get().createToken(1000);
  });
  async function answer(body: unknown): Promise<string> {
    const res = await get().inject({
      method: 'PUT',
      url: '/token/settings',
      headers: { 'x-token': token, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    return `${res.statusCode} ${res.body}`;
  }
  const predicted = (problem: string | null): string => (problem === null ? '200 OK' : `400 ${problem}`);

  it('answers a threshold as thresholdProblem says', async () => {
    for (const threshold of THRESHOLDS)
      expect([threshold, await answer({ low_balance_threshold: threshold })]).toEqual([
        threshold,
        predicted(thresholdProblem(threshold)),
      ]);
  });

  it('answers an e-mail address as emailProblem says', async () => {
    for (const email of EMAILS)
      expect([email, await answer({ low_balance_email: email })]).toEqual([email, predicted(emailProblem(email))]);
  });

  it('answers a webhook as webhookUrlProblem, then webhookContentProblem, say', async () => {
    for (const webhook of WEBHOOKS)
      expect([webhook, await answer({ low_balance_webhook: webhook })]).toEqual([
        webhook,
        predicted(webhookUrlProblem(webhook.url) ?? webhookContentProblem(webhook)),
      ]);
  });
});
