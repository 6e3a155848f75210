import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { startSmtpListener } from '../../../src/features/mail/smtp-listener.js';
import { MINUTE } from '../../../src/lib/time.js';
import { ManualClock, startTestApp } from '../../helpers/app.js';
import { startPrivatePostgres } from '../../helpers/private-postgres.js';
import type { PrivatePostgres } from '../../helpers/private-postgres.js';
import { useReceiver } from '../webhooks/webhook-fixtures.js';
import { createMailbox, outboxCount, sendMail } from '../mail/mail-fixtures.js';
import type { MailHarness } from '../mail/mail-fixtures.js';
import { sleep, until, type WorkerLogLine } from '../../helpers/wait.js';

/**
 * Inbound mail across a PostgreSQL outage, two instances on a PostgreSQL of the test's own: a message
 * answered 250 just before the database goes away is delivered while it is away; its outbox entry is
 * deleted once the database is back, so no instance takes it over and delivers it again. A message
 * offered during the outage is refused with a temporary (4xx) reply, so its sender retries.
 */

describe('inbound mail across a PostgreSQL outage, two instances', () => {
  const { env, receiver } = useReceiver();
  const clock = new ManualClock();
  const database: { pg?: PrivatePostgres } = {};
  const instances: Array<{ harness: MailHarness; logs: WorkerLogLine[] }> = [];

  beforeAll(async () => {
    database.pg = await startPrivatePostgres();
    if (database.pg === undefined) return;
    const shared = { url: database.pg.url, drop: async () => undefined };
    for (let i = 0; i < 2; i++) {
      const logs: WorkerLogLine[] = [];
      const logger = pino(
        { level: 'info' },
        { write: (line: string) => void logs.push(JSON.parse(line) as WorkerLogLine) },
      );
      const t = await startTestApp('postgres', {
        database: shared,
        clock,
        env: { ...env, PUBLIC_URL: 'https://coinop.test' },
        inbound: { recoveryIntervalMs: 0 }, // recovery is called by hand, after the clock has moved
        overrides: () => ({ logger }),
      });
      if (t.inbound === undefined) throw new Error('no inbound pipeline');
      const smtp = await startSmtpListener(t.deps, { port: 0, host: '127.0.0.1', inbound: t.inbound });
      if (smtp === null) throw new Error('listener not started');
      instances.push({ harness: { t, smtp, receiver: receiver() }, logs });
    }
  }, 60_000);

  afterAll(async () => {
    for (const { harness } of instances.reverse()) {
      await harness.smtp.close();
      await harness.t.close();
    }
    await database.pg?.destroy();
  }, 60_000);

  it('delivers a message accepted just before the outage exactly once, and answers 4xx to one offered during it', async (context) => {
    const postgres = database.pg;
    const [first, second] = instances;
    if (postgres === undefined || first === undefined || second === undefined) return context.skip();
    const mailbox = await createMailbox(first.harness, {}, 1000, '/outage-mail');

    // The receiver holds its answer until the database is down: the delivery ends, and its entry is deleted, during the outage.
    let databaseDown!: () => void;
    const down = new Promise<void>((resolve) => (databaseDown = resolve));
    receiver().enqueue(async () => {
      await down;
      return { status: 200 };
    });
    const accepted = await sendMail(first.harness, { to: mailbox.email, subject: 'just before', text: 'hello' });
    expect(accepted.response).toMatch(/^250 /);
    await receiver().waitForRequests(1);

    await postgres.stop();
    databaseDown();
    await sleep(1500); // the receiver answered; the entry's deletion met the database away

    const refused = await sendMail(second.harness, { to: mailbox.email, subject: 'during', text: 'hello' }).then(
      () => undefined,
      (error: { responseCode?: number }) => error.responseCode,
    );
    expect(refused).toBeGreaterThanOrEqual(400);
    expect(refused).toBeLessThan(500);

    await postgres.start();
    const deletedInTime = await until(async () => (await outboxCount(first.harness)) === 0, 10_000);

    // Long after its claim ran out, neither instance finds anything to take over.
    clock.advance(10 * MINUTE);
    const takenOver = [await first.harness.t.inbound?.recover(), await second.harness.t.inbound?.recover()];
    await first.harness.t.inbound?.idle();
    await second.harness.t.inbound?.idle();
    expect(receiver().requests.filter((request) => request.path === '/outage-mail')).toHaveLength(1);
    expect(takenOver).toEqual([0, 0]);
    // The delivered entry was deleted within seconds of the database's return.
    expect(deletedInTime).toBe(true);

    // The outbox worker of the instance that delivered: one warning for the outage, no error, and it said when it resumed.
    const outbox = first.logs.filter((line) => line.worker === 'inbound outbox');
    expect(outbox.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([]);
    expect(outbox.filter((line) => line.level === 40)).toHaveLength(1);
    expect(outbox.filter((line) => line.msg.includes('resumed'))).toHaveLength(1);
  }, 90_000);
});
