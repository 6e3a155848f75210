import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import nodemailer from 'nodemailer';
import { createTestCertificates, startHttpsReceiver } from '../../helpers/https-receiver.js';
import type { HttpsReceiver } from '../../helpers/https-receiver.js';
import { startDnsServer } from '../../helpers/dns-server.js';
import type { TestDnsServer } from '../../helpers/dns-server.js';
import { freePort, startServerProcess } from '../../helpers/server-process.js';
import type { ServerProcess } from '../../helpers/server-process.js';
import { fundedToken } from '../../helpers/funded-token.js';

/**
 * The security review's worst inputs (template amplification, backtracking on mail headers, quadratic
 * HTML analysis, unbounded DNS work), sent at once to a real service process while a client polls
 * `/healthz` every 50 ms. One cheap call must never stall the event loop for everybody or blow the heap:
 * no poll may wait more than 200 ms and the process must stay under 400 MB resident.
 */

const ADMIN_TOKEN = 'admin-token-for-worst-inputs';
const MAIL_DOMAIN = 'worst.coinop.test';
const POLL_EVERY_MS = 50;
const MAX_POLL_WAIT_MS = 200;
const MAX_RSS_BYTES = 400 * 1024 * 1024;

let service: ServerProcess;
let receiver: HttpsReceiver;
let silentDns: TestDnsServer;
let dataDir: string;
let smtpPort: number;
const agent = new Agent({ connections: 8 });

beforeAll(async () => {
  const certificates = createTestCertificates();
  dataDir = mkdtempSync(join(tmpdir(), 'coinop-worst-'));
  const caFile = join(dataDir, 'ca.pem');
  writeFileSync(caFile, certificates.caPem);
  receiver = await startHttpsReceiver({
    certificates,
    responder: (req) =>
      req.path.startsWith('/page/')
        ? { status: 200, headers: { 'content-type': 'text/html' }, body: PAGES[req.path] ?? '' }
        : { status: 200, body: 'ok' },
  });
  // Swallows every query: the slowest DNS server a lookup can meet.
  silentDns = await startDnsServer({ behaviour: () => ({ drop: true }) });
  smtpPort = await freePort();
  service = await startServerProcess({
    DATA_DIR: dataDir,
    ADMIN_TOKEN,
    SMTP_PORT: String(smtpPort),
    SMTP_HOST: '127.0.0.1',
    MAIL_DOMAIN,
    OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
    OUTBOUND_CA_FILE: caFile,
    DNS_SERVERS: silentDns.address,
    LOG_LEVEL: 'warn',
  });
}, 60_000);

afterAll(async () => {
  service?.child.kill('SIGKILL');
  await service?.exited;
  await agent.close();
  await receiver?.close();
  await silentDns?.close();
  if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
});

const nested = (depth: number, open: string, close: string) =>
  `<html><body>${open.repeat(depth)}text${close.repeat(depth)}</body></html>`;
const PAGES: Record<string, string> = {
  '/page/noise': nested(20_000, '<div class="ad">', '</div>'),
  '/page/deep': nested(100_000, '<div>', '</div>'),
};

async function call(
  method: 'GET' | 'POST',
  path: string,
  token: string,
  body?: string,
  contentType = 'application/json',
) {
  const response = await request(`${service.url}${path}`, {
    method,
    headers: { 'x-token': token, ...(body === undefined ? {} : { 'content-type': contentType }) },
    body,
    dispatcher: agent,
    headersTimeout: 120_000,
    bodyTimeout: 120_000,
  });
  return { status: response.statusCode, text: await response.body.text() };
}

async function mailbox(token: string, webhookId: string, config: Record<string, unknown>): Promise<string> {
  const created = await call(
    'POST',
    '/webhook',
    token,
    JSON.stringify({ webhookId, url: receiver.url('/hook', '127.0.0.1'), ...config }),
  );
  expect(created.status, created.text).toBe(200);
  return String((JSON.parse(created.text) as { email: unknown }).email);
}

/**
 * Polls /healthz every 50 ms until told to stop, from a worker thread: the test's own event loop is busy
 * encoding megabytes of mail, and must not be what delays a poll.
 */
const POLLER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
let running = true, polls = 0, failures = 0, longestMs = 0;
parentPort.on('message', () => { running = false; });
const poll = () => new Promise((resolve) => {
  const req = http.get(workerData.url + '/healthz', { agent }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode === 200)); });
  req.on('error', () => resolve(false));
});
(async () => {
  while (running) {
    const started = performance.now();
    if (!(await poll())) failures += 1;
    const waited = performance.now() - started;
    longestMs = Math.max(longestMs, waited);
    polls += 1;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, workerData.everyMs - waited)));
  }
  agent.destroy();
  parentPort.postMessage({ polls, failures, longestMs });
})();
`;

function pollHealth(): { stop: () => Promise<{ polls: number; longestMs: number; failures: number }> } {
  const worker = new Worker(POLLER_SOURCE, { eval: true, workerData: { url: service.url, everyMs: POLL_EVERY_MS } });
  const report = new Promise<{ polls: number; longestMs: number; failures: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return {
    stop: async () => {
      worker.postMessage('stop');
      const result = await report;
      await worker.terminate();
      return result;
    },
  };
}

/** Resident bytes of the process, 0 once it is gone. */
function residentBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match === null ? 0 : Number(match[1]) * 1024;
  } catch {
    return 0;
  }
}

/** Every attack settled, or whatever is still running after `ms` counted as failed. */
function settledWithin<T>(promises: ReadonlyArray<Promise<T>>, ms: number): Promise<Array<PromiseSettledResult<T>>> {
  const late = new Promise<T>((_resolve, reject) =>
    setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms).unref(),
  );
  return Promise.allSettled(promises.map((promise) => Promise.race([promise, late])));
}

it('keeps answering /healthz within 200 ms and under 400 MB while it takes every worst input at once', async () => {
  const token = await fundedToken(service.url, { adminToken: ADMIN_TOKEN, amount: 100_000, dispatcher: agent });
  const template = { t: '{{text}}'.repeat(200) };
  const amplified = [
    await mailbox(token, 'amp1', { format: 'custom', template }),
    await mailbox(token, 'amp2', { format: 'custom', template }),
    await mailbox(token, 'amp3', { format: 'custom', template }),
  ];
  const chat = await mailbox(token, 'chat1', { format: 'slack' });
  const pid = service.child.pid as number;

  let peakRss = residentBytes(pid);
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, residentBytes(pid))), 100);
  const health = pollHealth();
  await new Promise((resolve) => setTimeout(resolve, 300));

  const mailer = nodemailer.createTransport({
    host: '127.0.0.1',
    port: smtpPort,
    secure: false,
    ignoreTLS: true,
    name: 'client.test',
  });
  const attacks = await settledWithin<unknown>(
    [
      // 1. One ~1 MB message rendered through a template that repeats {{text}} 200 times, for three mailboxes.
      mailer.sendMail({ from: 'a@sender.test', to: amplified, subject: 'amplify', text: 'x'.repeat(1_000_000) }),
      // 2. Runs of whitespace in the subject and the sender's name, formatted for chat (together just under
      //    the parser's 1 MiB limit on a message's header, so they reach the formatting).
      mailer.sendMail({
        from: { name: `a${' '.repeat(200_000)}b`, address: 'b@sender.test' },
        to: chat,
        subject: `a${' '.repeat(700_000)}b`,
        text: 'hi',
      }),
      // 3. Deeply nested and noise-classed HTML.
      call('POST', '/url-to-metadata', token, JSON.stringify({ url: receiver.url('/page/noise', '127.0.0.1') })),
      call('POST', '/url-to-metadata', token, JSON.stringify({ url: receiver.url('/page/deep', '127.0.0.1') })),
      // 4. The longest lookup the request limits allow, against a server that never answers.
      call(
        'POST',
        '/dns-lookup',
        token,
        JSON.stringify({
          domains: ['slow.test', 'slower.test'],
          recordTypes: ['A', 'AAAA', 'MX', 'TXT'],
          timeout: 60_000,
          maxRetries: 10,
          retryDelay: 100_000,
        }),
      ),
    ],
    60_000,
  );
  mailer.close();
  // Let the deliveries of the accepted mail run while the poller watches.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const { polls, longestMs, failures } = await health.stop();
  clearInterval(sampler);

  expect(service.child.exitCode, service.output().slice(-2000)).toBeNull();
  for (const attack of attacks)
    expect(attack.status, String((attack as PromiseRejectedResult).reason)).toBe('fulfilled');
  const [, , noise, deep, lookup] = attacks as unknown as Array<
    PromiseFulfilledResult<{ status: number; text: string }>
  >;
  for (const answer of [noise, deep, lookup]) expect(answer?.value.status, answer?.value.text).toBeLessThan(500);
  expect(failures).toBe(0);
  expect(polls).toBeGreaterThan(20);
  expect(longestMs).toBeLessThan(MAX_POLL_WAIT_MS);
  expect(peakRss).toBeLessThan(MAX_RSS_BYTES);
}, 120_000);
