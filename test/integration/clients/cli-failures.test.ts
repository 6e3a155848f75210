import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { freePort } from '../../helpers/server-process.js';
import { sha256Hex } from '../../../src/lib/hash.js';
import { useListeningApp } from './listening-app.js';
import { useLiveService } from './live-service.js';
import { CLI, buildClient, run } from './run-cli.js';

beforeAll(async () => {
  const build = await buildClient();
  expect(build, build.stdout).toMatchObject({ code: 0 });
}, 120_000);

let home: string;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'coinop-cli-failures-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** The CLI with a home of its own (no config file) talking to `url`. */
const coinop = (url: string, args: readonly string[], env: Record<string, string> = {}) =>
  run(process.execPath, [CLI, ...args], { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), COINOP_URL: url, ...env });

describeEachStore('the coinop CLI when a DNS lookup is not answered', (kind) => {
  let deadPort = 0;
  beforeAll(async () => {
    deadPort = await freePort();
  });
  // The instance's only resolver is a loopback port where nothing listens: every query is UNREACHABLE.
  const env: Record<string, string> = {};
  beforeAll(() => {
    env.DNS_SERVERS = `127.0.0.1:${deadPort}`;
  });
  const service = useListeningApp(kind, env);

  it('shows the failure, what failed and that it was charged, and exits 6 rather than printing an empty table', async () => {
    const token = await service.app().createToken(50);
    const answer = await coinop(service.url(), ['dns', 'example.test', '--types', 'A,MX'], { COINOP_TOKEN: token });
    expect(answer).toStrictEqual({
      code: 6,
      stdout: '(no records)\n',
      stderr: [
        '(cost 5, balance 45)',
        'example.test: not answered: A UNREACHABLE, MX UNREACHABLE',
        'coinop dns: the DNS servers answered nothing for example.test: the lookup was still charged (5 credits, as every answered lookup is)',
        '',
      ].join('\n'),
    });
    // --json gives scripts the answer as the service gave it, and the same exit status.
    const json = await coinop(service.url(), ['dns', 'example.test', '--types', 'A', '--json'], {
      COINOP_TOKEN: token,
    });
    expect(json.code).toBe(6);
    expect(JSON.parse(json.stdout)).toMatchObject({
      data: { results: [{ lookupResult: { errors: { A: 'UNREACHABLE' } } }] },
      cost: 5,
      balance: 40,
    });
  });
});

describeEachStore('the coinop CLI telling what a failure cost and what to do next', (kind) => {
  const service = useLiveService(kind);

  it('a 402 says what the call costs, what the wallet holds, and how to add credits on an instance without Stripe', async () => {
    const token = await service.app().createToken(38);
    const answer = await coinop(service.url(), ['meta', 'https://example.test/', '--summary', 'none'], {
      COINOP_TOKEN: token,
    });
    expect(answer).toStrictEqual({
      code: 3,
      stdout: '',
      stderr: [
        'coinop meta: InsufficientCredits: 402: Insufficient credits: the call costs 55 credits and the wallet holds 38 credits',
        '(cost 0, balance 38)',
        `This instance sells no credits (no Stripe): ask the instance's operator to add credits: ADMIN_TOKEN=… coinop admin credit ${sha256Hex(token)} <amount>`,
        '',
      ].join('\n'),
    });
    const withSummary = await coinop(service.url(), ['meta', 'https://example.test/', '--summary', 'short'], {
      COINOP_TOKEN: token,
    });
    expect(withSummary.stderr).toContain('the call costs 800 credits and the wallet holds 38 credits');
  });

  it('an error answer shows its cost line as a success does', async () => {
    const token = await service.app().createToken(10);
    expect(await coinop(service.url(), ['kv', 'get', 'cli', 'never-set'], { COINOP_TOKEN: token })).toStrictEqual({
      code: 4,
      stdout: '',
      stderr: 'coinop kv: NotFound: 404: Key Not Found\n(cost 1, balance 9)\n',
    });
  });

  it('webhook ls with no webhooks says so, as kv ls does, rather than print a bare header', async () => {
    const token = await service.app().createToken(10);
    expect(await coinop(service.url(), ['webhook', 'ls'], { COINOP_TOKEN: token })).toStrictEqual({
      code: 0,
      stdout: '(no webhooks)\n',
      stderr: '(cost 1, balance 9)\n',
    });
  });

  it('a service that does not answer: the error names the address and says how to start the service or point the CLI at it', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const answer = await coinop(nowhere, ['token', 'new', '--save']);
    expect(answer.code).toBe(6);
    expect(answer.stderr).toBe(
      [
        `coinop token: cannot reach ${nowhere}: connect ECONNREFUSED ${nowhere.slice('http://'.length)}`,
        `Nothing answers at ${nowhere}. Start the service there (npm start in the coinop folder serves http://localhost:8080),`,
        'or point coinop at yours: --url <base URL>, or COINOP_URL=<base URL> (coinop token new --save keeps the URL for later commands).',
        '',
      ].join('\n'),
    );
  });
});

describeEachStore('the coinop CLI at a 402 on an instance selling credits through Stripe', (kind) => {
  const link = 'https://buy.stripe.com/test_cli_402';
  const service = useListeningApp(kind, {
    STRIPE_WEBHOOK_SECRET: 'whsec_cli_402',
    STRIPE_PAYMENT_LINK_1M: link,
    STRIPE_PAYMENT_LINK_3M: `${link}_3m`,
  });

  it('says where to buy credits: the instance recharge link for the wallet', async () => {
    const token = await service.app().createToken(0);
    const answer = await coinop(service.url(), ['kv', 'set', 'b', 'k', 'v'], { COINOP_TOKEN: token });
    expect(answer.code).toBe(3);
    expect(answer.stderr.split('\n')).toEqual([
      'coinop kv: InsufficientCredits: 402: Insufficient credits: the call costs 1 credit and the wallet holds 0 credits',
      '(cost 0, balance 0)',
      `To add credits: buy a million at ${link}?client_reference_id=${sha256Hex(token)} (coinop recharge 3 for three million), or ask the instance's operator to add credits: ADMIN_TOKEN=… coinop admin credit ${sha256Hex(token)} <amount>`,
      '',
    ]);
  });
});
