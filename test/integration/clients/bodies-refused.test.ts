import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { Coinop, InvalidInput } from '../../../clients/typescript/src/index.js';
import { useLiveService } from './live-service.js';
import { CLI, buildClient, run } from './run-cli.js';

beforeAll(async () => {
  const build = await buildClient();
  expect(build, build.stdout).toMatchObject({ code: 0 });
}, 120_000);

type Method = 'POST' | 'PUT' | 'PATCH';

/** A JSON body sent to one route, and the same body given to the SDK method of that route. */
interface BodyCase {
  readonly method: Method;
  readonly url: string;
  readonly body: unknown;
}

const SCHEDULE = { cron: '0 3 * * *', timezone: 'UTC' };
const HOOK = 'https://hooks.example.com/h';

/** Webhook configurations (POST /webhook, PUT /webhook/w1) the service refuses, and charges for. */
const WHOLE_BODIES: readonly unknown[] = [
  { url: HOOK, schedule: { ...SCHEDULE, actve: true } },
  { url: HOOK, schedule: { ...SCHEDULE, active: 'yes' } },
  { url: HOOK, schedule: SCHEDULE, retry: { attempts: 9 } },
  { url: HOOK, schedule: SCHEDULE, retry: { attempts: 1, backoff: 'linear' } },
  { url: HOOK, schedule: SCHEDULE, retry: { attempts: 1, jitter: true } },
  { url: HOOK, schedule: SCHEDULE, headers: { 'x-a': 5 } },
  { url: HOOK, schedule: SCHEDULE, webhookId: 5 },
  { url: HOOK, includeAttachments: 'yes' },
  { url: HOOK, format: null },
  { url: HOOK, schedule: { cron: '0 3 * * *' } },
  { schedule: SCHEDULE },
  [1, 2],
  null,
  'x',
  { url: HOOK, schedule: { cron: 5, timezone: 'UTC' } },
  { url: HOOK, schedule: null },
  { url: HOOK, headers: null },
  { url: HOOK, schedule: SCHEDULE, headers: { [`x-${'a'.repeat(255)}`]: 'v' } },
  { url: HOOK, format: 'telegram', options: { chat_id: '1', ['k'.repeat(65)]: 'v' } },
];

const REFUSED: readonly BodyCase[] = [
  ...WHOLE_BODIES.map((body) => ({ method: 'POST' as const, url: '/webhook', body })),
  ...WHOLE_BODIES.map((body) => ({ method: 'PUT' as const, url: '/webhook/w1', body })),
  { method: 'PUT', url: '/webhook/w1', body: { webhookId: 'w2', url: HOOK, schedule: SCHEDULE } },
];

/** The SDK method for a route, given the body as it came (typed loosely on purpose: these are the bodies typos make). */
function send(client: Coinop, { method, body }: BodyCase): Promise<unknown> {
  if (method === 'POST') return client.webhookCreate(body as never);
  if (method === 'PUT') return client.webhookReplace('w1', body as never);
  return client.webhookUpdate('w1', body as never);
}

describeEachStore('webhook bodies the service would refuse, refused by the clients', (kind) => {
  const service = useLiveService(kind);
  let home: string;
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'coinop-bodies-'));
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  /** The service's answer to `request` from a wallet of its own: a 400 that costs, whose body the clients must give. */
  async function served(witness: string, request: BodyCase): Promise<string> {
    const answer = await service.app().inject({
      method: request.method,
      url: request.url,
      headers: { 'x-token': witness, 'content-type': 'application/json' },
      payload: JSON.stringify(request.body),
    });
    expect(answer.statusCode, `${request.method} ${JSON.stringify(request.body)}: ${answer.body}`).toBe(400);
    expect(Number(answer.headers['x-cost']), answer.body).toBeGreaterThan(0);
    return answer.body;
  }

  it('the SDK rejects each with InvalidInput carrying the service 400 body, never throwing, and charges nothing', async () => {
    const token = await service.app().createToken(100);
    const client = new Coinop({ baseUrl: service.url(), token });
    const witness = await service.app().createToken(1000);
    await client.webhookCreate({ webhookId: 'w1', url: service.outbound.url('/h'), schedule: SCHEDULE });
    const before = (await client.tokenInfo()).balance;
    for (const request of REFUSED) {
      const wording = await served(witness, request);
      let call: Promise<unknown> | undefined;
      expect(() => (call = send(client, request)), JSON.stringify(request.body)).not.toThrow();
      const error = await call?.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error, `${request.method} ${JSON.stringify(request.body)}`).toBeInstanceOf(InvalidInput);
      expect((error as InvalidInput).body, `${request.method} ${JSON.stringify(request.body)}`).toBe(wording);
    }
    expect((await client.tokenInfo()).balance).toBe((before ?? 0) - 1);
  });

  it('the SDK sends what the service accepts: every field of a scheduled configuration, on create and replace', async () => {
    const client = new Coinop({ baseUrl: service.url(), token: await service.app().createToken(100) });
    const body = {
      webhookId: 'full',
      url: service.outbound.url('/h'),
      headers: { 'X-A': '1', 'x-b': '2' },
      schedule: { ...SCHEDULE, active: false },
      retry: { attempts: 8, backoff: 'exponential' as const },
    };
    expect((await client.webhookCreate(body)).cost).toBe(1);
    expect((await client.webhookReplace('full', { ...body, retry: { attempts: 0 } })).cost).toBe(1);
    expect((await client.webhookReplace('full', { url: body.url, schedule: SCHEDULE })).cost).toBe(1);
  });

  it('the SDK judges the JSON it sends, not the object it is handed: fields set to undefined, a Date, NaN', async () => {
    const client = new Coinop({ baseUrl: service.url(), token: await service.app().createToken(100) });
    const channel: string | undefined = undefined;
    const created = await client.webhookCreate({
      webhookId: 'as-sent',
      url: service.outbound.url('/h'),
      headers: { 'X-A': '1', 'X-B': undefined as unknown as string },
      format: 'custom',
      template: { text: '{{subject}}', channel, since: new Date(0), ratio: Number.NaN },
      options: { chat_id: '1', thread: undefined as unknown as string },
    });
    expect(created.cost).toBe(1);
    expect(created.data.headers).toEqual({ 'X-A': '***' });
    const patched = await client.webhookUpdate('as-sent', { template: { text: '{{subject}}', x: undefined } });
    expect(patched.cost).toBe(1);
    const settings = await client.settingsUpdate({
      low_balance_webhook: { url: service.outbound.url('/low'), headers: { 'X-A': undefined as unknown as string } },
    });
    expect(settings.cost).toBe(1);
  });

  it('the SDK refuses a PATCH the service would refuse whatever the stored webhook, and sends one the stored webhook may settle', async () => {
    const token = await service.app().createToken(100);
    const client = new Coinop({ baseUrl: service.url(), token });
    const witness = await service.app().createToken(1000);
    for (const owner of [client, new Coinop({ baseUrl: service.url(), token: witness })])
      await owner.webhookCreate({ webhookId: 'w1', url: service.outbound.url('/h'), schedule: SCHEDULE });
    const deep = { a: { b: { c: { d: { e: { f: '{{x}}' } } } } } };
    const patches: readonly unknown[] = [
      { urll: HOOK },
      { schedule: { actve: true } },
      { schedule: { cron: '61 * * * *' } },
      { schedule: { timezone: 'Europe/Berln' } },
      { schedule: { ...SCHEDULE, cron: '0 0 30 2 *' } },
      { format: 'slak' },
      { schedule: null, format: 'telegram', options: {} },
      { schedule: null, format: 'custom', template: null },
      { schedule: null, format: 'custom', template: deep },
      { schedule: SCHEDULE, format: 'slack' },
      { retry: { attempts: 9 } },
      { rotateSecret: 'yes' },
      { headers: { 'X-A': '1', 'x-a': '2' } },
      { url: 'http://hooks.example.com/h' },
      null,
    ];
    const before = (await client.tokenInfo()).balance ?? 0;
    for (const body of patches) {
      const request = { method: 'PATCH' as const, url: '/webhook/w1', body };
      const wording = await served(witness, request);
      const error = await send(client, request).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error, JSON.stringify(body)).toBeInstanceOf(InvalidInput);
      expect((error as InvalidInput).body, JSON.stringify(body)).toBe(wording);
    }
    expect((await client.tokenInfo()).balance).toBe(before - 1);
    // Settled by the stored webhook (its zone, its cron, its options): sent, and the service judges them.
    for (const patch of [
      { schedule: { cron: '0 4 * * *' } },
      { schedule: { timezone: 'Europe/Berlin' } },
      { schedule: { active: false } },
      { retry: null, headers: null, rotateSecret: true },
    ])
      expect((await client.webhookUpdate('w1', patch)).cost, JSON.stringify(patch)).toBe(1);
    // A format whose option the stored webhook may hold: the service's to say (here: a scheduled webhook takes none).
    const stored = await client.webhookUpdate('w1', { format: 'telegram' }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(stored).not.toBeInstanceOf(InvalidInput);
    expect(stored).toMatchObject({ status: 400, cost: 1 });
  });

  it('coinop webhook create --body refuses a malformed body in the service words (exit 5, nothing sent), no crash', async () => {
    const token = await service.app().createToken(100);
    const witness = await service.app().createToken(1000);
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), COINOP_URL: service.url(), COINOP_TOKEN: token };
    for (const body of WHOLE_BODIES) {
      const wording = await served(witness, { method: 'POST', url: '/webhook', body });
      const answer = await run(process.execPath, [CLI, 'webhook', 'create', '--body', JSON.stringify(body)], env);
      expect(answer, JSON.stringify(body)).toStrictEqual({
        code: 5,
        stdout: '',
        stderr: `coinop webhook: ${wording}\n(not sent: nothing charged)\n`,
      });
    }
    expect((await new Coinop({ baseUrl: service.url(), token }).tokenInfo()).balance).toBe(99);
  });
});

describeEachStore('low-balance settings the service would refuse, refused by the SDK', (kind) => {
  const service = useLiveService(kind);

  it('settingsUpdate rejects each with InvalidInput carrying the service 400 body and charges nothing; valid ones are sent', async () => {
    const client = new Coinop({ baseUrl: service.url(), token: await service.app().createToken(100) });
    const witness = await service.app().createToken(1000);
    const hook = service.outbound.url('/low');
    const refused: readonly unknown[] = [
      { low_balance_threshold: -1 },
      { low_balance_threshold: 1.5 },
      { low_balance_threshold: 1e13 },
      { low_balance_webhook: { url: 'http://hooks.example.com/h' } },
      { low_balance_webhook: { url: 'https://user:pass@hooks.example.com/h' } },
      { low_balance_webhook: { url: hook, format: 'slak' } },
      { low_balance_webhook: { url: hook, format: 'telegram' } },
      // Two faults: the one that needs no network is said first, by the service as by the SDK (which sees no policy).
      { low_balance_webhook: { url: 'https://10.0.0.1/x', format: 'telegram' } },
      { low_balance_webhook: { url: hook, headers: { A: '1', a: '2' } } },
      { low_balance_webhook: { url: hook, options: { k: 'x'.repeat(501) } } },
      { low_balance_webhook: { headers: {} } },
      { low_balance_email: 'not-an-address' },
      { low_balance_email: `${'a'.repeat(250)}@example.com` },
      { low_balance_treshold: 5 },
      [],
    ];
    for (const body of refused) {
      const answer = await service.app().inject({
        method: 'PUT',
        url: '/token/settings',
        headers: { 'x-token': witness, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect(answer.statusCode, `${JSON.stringify(body)}: ${answer.body}`).toBe(400);
      expect(Number(answer.headers['x-cost'])).toBeGreaterThan(0);
      let call: Promise<unknown> | undefined;
      expect(() => (call = client.settingsUpdate(body as never))).not.toThrow();
      const error = await call?.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error, JSON.stringify(body)).toBeInstanceOf(InvalidInput);
      expect((error as InvalidInput).body, JSON.stringify(body)).toBe(answer.body);
    }
    expect((await client.tokenInfo()).balance).toBe(99);
    const accepted: readonly Parameters<Coinop['settingsUpdate']>[0][] = [
      { low_balance_threshold: 0 },
      { low_balance_threshold: 1e12, low_balance_email: 'ops@example.com' },
      { low_balance_webhook: { url: hook, headers: { 'X-A': '1' }, format: 'telegram', options: { chat_id: '42' } } },
      { low_balance_webhook: null, low_balance_email: null },
    ];
    for (const body of accepted) expect((await client.settingsUpdate(body)).cost, JSON.stringify(body)).toBe(1);
  });
});
