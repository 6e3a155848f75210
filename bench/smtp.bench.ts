/**
 * Sustained SMTP ingest: 10 KB messages sent over SMTP (pipelined, several connections) to a real
 * coinop SMTP listener (a separate process pinned to core 0, running startSmtpListener), routed to
 * one mailbox webhook whose callback is a local HTTPS receiver (this process, core 1).
 * Reports accepted messages per second, the time from the end of DATA (the client writing the final
 * dot) to the callback arriving (p50 / p99 / max), the DATA reply time, and the service's resident
 * memory sampled every second (flat = no growth from the first to the last third of the run).
 *
 * Usage: npx tsx bench/smtp.bench.ts
 *   BENCH_SECONDS=30          measured duration (after 3 s of warm-up)
 *   BENCH_CONNECTIONS=16      concurrent SMTP sessions
 *   BENCH_MESSAGE_BYTES=10240 size of each message
 *   BENCH_DATABASE_URL=postgres://…   run on PostgreSQL too (a scratch schema)
 *
 * As in schedules.bench.ts, the receiver's CA reaches the service through NODE_EXTRA_CA_CERTS (the
 * production TLS setup); OUTBOUND_CA_FILE would rebuild a context with every root per connection.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import {
  freePort,
  percentiles,
  pinSelf,
  pinningNote,
  onEachStore,
  withScratchDir,
  rssMb,
  spawnPinned,
  stopProcess,
} from './lib.js';
import type { Percentiles } from './lib.js';
import { createTestCertificates, startHttpsReceiver } from '../test/helpers/https-receiver.js';
import { openStore } from '../src/store/open-store.js';
import { sha256Hex } from '../src/lib/hash.js';
import { base32Id } from '../src/lib/ids.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const WARMUP_SECONDS = 3;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const MESSAGE_BYTES = Number(process.env.BENCH_MESSAGE_BYTES ?? 10 * 1024);
const MAIL_DOMAIN = 'bench.coinop.test';

// ---------------------------------------------------------------------------------------------
// The service side: a coinop process running only the SMTP listener (main.ts wiring aside).
// ---------------------------------------------------------------------------------------------
async function serviceMain(): Promise<void> {
  const { loadConfig } = await import('../src/config.js');
  const { createDeps } = await import('../src/deps.js');
  const { startSmtpListener } = await import('../src/features/mail/smtp-listener.js');
  const { InboundMail } = await import('../src/features/mail/inbound.service.js');
  const deps = createDeps(loadConfig());
  await deps.store.migrate();
  const inbound = await InboundMail.create(deps);
  const listener = await startSmtpListener(deps, { inbound });
  if (listener === null) throw new Error('SMTP_PORT is 0');
  process.stdout.write(`ready ${listener.port}\n`);
  process.on('SIGTERM', () => {
    void (async () => {
      await listener.close();
      await inbound.close();
      await deps.ledger.flush();
      await deps.outbound.close();
      await deps.store.close();
      process.exit(0);
    })();
  });
}

// ---------------------------------------------------------------------------------------------
// The load side.
// ---------------------------------------------------------------------------------------------
function message(to: string, id: string): string {
  const head = [
    `From: Bench <bench@sender.test>`,
    `To: ${to}`,
    `Subject: bench ${id}`,
    `Message-ID: <${id}@sender.test>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    '',
  ].join('\r\n');
  const line = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor\r\n';
  return head + line.repeat(Math.max(1, Math.ceil((MESSAGE_BYTES - head.length) / line.length)));
}

/** One SMTP session sending messages back to back, pipelining MAIL/RCPT/DATA. */
class Session {
  private buffer = '';
  private waiting: ((line: string) => void) | undefined;

  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('latin1');
      this.pump();
    });
  }

  static async open(port: number): Promise<Session> {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const session = new Session(socket);
    await session.reply();
    session.socket.write('EHLO bench.test\r\n');
    await session.reply();
    return session;
  }

  private pump(): void {
    if (this.waiting === undefined) return;
    const match = /^(?:\d{3}-[^\r\n]*\r\n)*\d{3}(?: [^\r\n]*)?\r\n/.exec(this.buffer);
    if (!match) return;
    this.buffer = this.buffer.slice(match[0].length);
    const wake = this.waiting;
    this.waiting = undefined;
    wake(match[0]);
  }

  reply(): Promise<string> {
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.pump();
    });
  }

  /** Sends one message; returns when the DATA reply came, with the time the final dot was written. */
  async send(to: string, body: string): Promise<{ endOfData: number; reply: string }> {
    this.socket.write(`MAIL FROM:<bench@sender.test>\r\nRCPT TO:<${to}>\r\nDATA\r\n`);
    for (const expected of ['250', '250', '354']) {
      const reply = await this.reply();
      if (!reply.startsWith(expected)) throw new Error(`unexpected reply ${reply}`);
    }
    this.socket.write(`${body}.\r\n`);
    const endOfData = performance.now();
    return { endOfData, reply: await this.reply() };
  }

  close(): void {
    this.socket.end('QUIT\r\n');
  }
}

interface Result {
  label: string;
  accepted: number;
  refused: number;
  delivered: number;
  perSecond: number;
  latency: Percentiles;
  dataReply: Percentiles;
  rssMb: number[];
}

async function seed(databaseUrl: string, url: string): Promise<string> {
  const store = openStore(databaseUrl);
  try {
    await store.migrate();
    const mailbox = `r_${base32Id(16)}`;
    const now = Date.now();
    await store.write(async (tx) => {
      const [wallet] = await tx.all<{ id: number }>(
        'INSERT INTO wallets (hash, balance, created_at, last_used_at) VALUES ($1, $2, $3, $3) RETURNING id',
        [sha256Hex(`bench-${now}`), 1_000_000_000, now],
      );
      await tx.run(
        `INSERT INTO webhooks (wallet_id, webhook_id, url, headers, include_attachments, mailbox, signing_secret, created_at, updated_at)
         VALUES ($1, 'bench', $2, '{}', 1, $3, $4, $5, $5)`,
        [wallet?.id, url, mailbox, `whsec_${randomBytes(32).toString('base64')}`, now],
      );
    });
    return `${mailbox}@${MAIL_DOMAIN}`;
  } finally {
    await store.close();
  }
}

async function startService(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawnPinned(
    ['--import', 'tsx', fileURLToPath(import.meta.url)],
    {
      BENCH_ROLE: 'service',
      SMTP_PORT: String(port),
      SMTP_HOST: '127.0.0.1',
      MAIL_DOMAIN,
      LOG_LEVEL: 'warn',
      PUBLIC_URL: 'https://coinop.bench',
      ...env,
    },
    'pipe',
  );
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`service exited with ${code}`)));
  });
  return { child, port };
}

async function benchOnce(
  label: string,
  databaseUrl: string,
  caFile: string,
  certificates: ReturnType<typeof createTestCertificates>,
): Promise<Result> {
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  let delivered = 0;
  let measuring = false;
  const receiver = await startHttpsReceiver({
    certificates,
    responder: (request) => {
      const arrived = performance.now();
      const id = (JSON.parse(request.text) as { externalMessageId: string }).externalMessageId;
      request.body = Buffer.alloc(0);
      request.text = '';
      delivered += 1;
      const sent = sentAt.get(id);
      if (sent !== undefined) {
        latencies.push(arrived - sent);
        sentAt.delete(id);
      }
      return { status: 204 };
    },
  });
  const address = await seed(databaseUrl, receiver.url('/hook', '127.0.0.1'));
  const { child, port } = await startService({
    DATABASE_URL: databaseUrl,
    OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
    NODE_EXTRA_CA_CERTS: caFile,
  });
  const pid = Number(child.pid); // taskset execs node: same process
  const rss: number[] = [];
  const sampler = setInterval(() => {
    if (measuring) rss.push(rssMb(pid));
  }, 1000);
  const dataReplies: number[] = [];
  let accepted = 0;
  let refused = 0;
  let stop = false;
  let seq = 0;
  try {
    const sessions = await Promise.all(Array.from({ length: CONNECTIONS }, () => Session.open(port)));
    const loops = sessions.map(async (session) => {
      while (!stop) {
        const id = `m${(seq += 1)}-${randomBytes(4).toString('hex')}`;
        const body = message(address, id);
        const started = performance.now();
        const { endOfData, reply } = await session.send(address, body);
        if (measuring) sentAt.set(`${id}@sender.test`, endOfData);
        if (!reply.startsWith('250')) {
          refused += 1;
          continue;
        }
        if (measuring) {
          accepted += 1;
          dataReplies.push(performance.now() - started);
        }
      }
      session.close();
    });
    await new Promise((resolve) => setTimeout(resolve, WARMUP_SECONDS * 1000));
    const deliveredBefore = delivered;
    measuring = true;
    const measureStart = performance.now();
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    measuring = false;
    stop = true;
    const elapsed = (performance.now() - measureStart) / 1000;
    await Promise.all(loops);
    // Let the last deliveries arrive.
    const deadline = Date.now() + 30_000;
    while (sentAt.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    return {
      label,
      accepted,
      refused,
      delivered: delivered - deliveredBefore,
      perSecond: accepted / elapsed,
      latency: percentiles(latencies),
      dataReply: percentiles(dataReplies),
      rssMb: rss,
    };
  } finally {
    clearInterval(sampler);
    await stopProcess(child);
    await receiver.close();
  }
}

async function loadMain(): Promise<void> {
  pinSelf(1);
  const certificates = createTestCertificates();
  const results = await withScratchDir('coinop-smtp-bench-', async (dir) => {
    const caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, certificates.caPem);
    return onEachStore(dir, (label, url) => benchOnce(label, url, caFile, certificates));
  });

  console.log(
    `\n${(MESSAGE_BYTES / 1024).toFixed(0)} KB messages over ${CONNECTIONS} pipelined SMTP sessions for ${SECONDS} s (after ${WARMUP_SECONDS} s warm-up); ` +
      `service on core 0, client + HTTPS receiver on core 1${pinningNote}\n`,
  );
  console.log(
    '| store | accepted | msg/s | delivered | end of DATA → delivery p50 / p99 / max | DATA reply p50 / p99 | service RSS first → last (max) |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  const ms = (p: Percentiles) => `${p.p50.toFixed(1)} / ${p.p99.toFixed(1)} / ${p.max.toFixed(1)} ms`;
  for (const r of results) {
    const third = Math.max(1, Math.floor(r.rssMb.length / 3));
    const avg = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) / Math.max(1, values.length));
    console.log(
      `| ${r.label} | ${r.accepted}${r.refused > 0 ? ` (+${r.refused} refused)` : ''} | ${r.perSecond.toFixed(0)} | ${r.delivered} | ${ms(r.latency)} | ` +
        `${r.dataReply.p50.toFixed(1)} / ${r.dataReply.p99.toFixed(1)} ms | ${avg(r.rssMb.slice(0, third))} → ${avg(r.rssMb.slice(-third))} MB (${Math.max(...r.rssMb)}) |`,
    );
  }
}

if (process.env.BENCH_ROLE === 'service') await serviceMain();
else await loadMain();
