import { spawn, spawnSync } from 'node:child_process';
import fs, { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ACCESS_BATCH_BYTES,
  ACCESS_BATCH_MS,
  accessLineWriter,
  endLog,
  LogDestination,
} from '../../../src/observability/log-destination.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const access = (n: number): string => `{"level":30,"msg":"request","n":${n}}\n`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the log destination', () => {
  let dir: string;
  let file: string;
  let fd: number;
  let destination: LogDestination;
  /** The writes handed to the thread pool for the file. */
  const writes = () => fsWrite.mock.calls.filter(([to]) => to === fd).length;
  const fsWrite = vi.spyOn(fs, 'write');

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'coinop-log-destination-'));
    file = join(dir, 'out.log');
    fd = openSync(file, 'w');
    fsWrite.mockClear();
    destination = new LogDestination(fd);
  });
  afterEach(async () => {
    await destination.end();
    fs.closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  });
  const written = (): string[] => readFileSync(file, 'utf8').split('\n').filter(Boolean);

  it('batches access lines: many lines, one write, within ACCESS_BATCH_MS', async () => {
    await sleep(ACCESS_BATCH_MS + 50); // its timer has run once with nothing to write: the batch re-arms it
    for (let n = 0; n < 50; n++) destination.append(access(n));
    await sleep(10);
    expect(writes()).toBe(0);
    expect(written()).toEqual([]);
    await sleep(ACCESS_BATCH_MS + 200);
    expect(writes()).toBe(1);
    expect(written()).toHaveLength(50);
  });

  it('writes a batch that reaches ACCESS_BATCH_BYTES at once', async () => {
    const line = access(0);
    const count = Math.ceil(ACCESS_BATCH_BYTES / line.length);
    for (let n = 0; n < count; n++) destination.append(line);
    await sleep(20);
    expect(writes()).toBeGreaterThan(0);
    expect(written()).toHaveLength(count);
  });

  it("keeps the order of pino's lines and access lines: a pino line is written at once, after the lines before it", async () => {
    const logger = pino({ level: 'info' }, destination);
    const writeAccess = accessLineWriter(logger);
    logger.info('first');
    writeAccess(access(1));
    writeAccess(access(2));
    logger.warn('second');
    writeAccess(access(3));
    await sleep(20);
    const order = () => written().map((line) => (JSON.parse(line) as { msg: string; n?: number }).n ?? line);
    const made = [expect.stringContaining('"first"'), 1, 2, expect.stringContaining('"second"'), 3];
    // The warning did not wait for the batch's timer, and took the two access lines before it along.
    expect(order().slice(0, 4)).toEqual(made.slice(0, 4));
    await endLog(logger);
    expect(order()).toEqual(made);
    logger.info('after the end');
    writeAccess(access(4));
    await sleep(20);
    expect(written()).toHaveLength(5);
  });

  it('writes every byte of lines of any size and script, in order, across the batches their bytes fill', async () => {
    // Lines are encoded into the batch's buffer as they come: multi-byte text at a buffer's end, and a line longer
    // than a whole buffer, must come out whole and in place.
    const wide = (n: number, text: string): string => `{"level":30,"msg":"request","n":${n},"text":"${text}"}\n`;
    const lines = [
      ...Array.from({ length: 900 }, (_, n) => wide(n, 'é€😀'.repeat(n % 40))),
      wide(900, '😀'.repeat(70_000)),
      wide(901, 'plain'),
      wide(902, '€'.repeat(45_000)),
      ...Array.from({ length: 100 }, (_, n) => wide(903 + n, 'x'.repeat(n))),
    ];
    for (const line of lines) destination.append(line);
    await destination.end();
    expect(readFileSync(file, 'utf8')).toBe(lines.join(''));
  });

  it('goes on when the output refuses writes (a full disk): the lines are dropped and stderr is told, once', async () => {
    const full = openSync('/dev/full', 'w');
    const told: string[] = [];
    const failing = new LogDestination(full, { onTrouble: (message) => told.push(message) });
    try {
      const logger = pino({ level: 'info' }, failing);
      for (let n = 0; n < 1000; n++) failing.append(access(n));
      logger.warn('a line of its own');
      await sleep(ACCESS_BATCH_MS + 100);
      for (let n = 0; n < 10; n++) failing.append(access(n));
      await failing.end();
      expect(told).toEqual(['the log output refused a write (ENOSPC): dropping log lines until it takes them again']);
    } finally {
      fs.closeSync(full);
    }
  });

  it('holds at most its limit of lines for a reader that stalls, drops the newest past it, and says how many when the reader is back', async () => {
    const fifo = join(dir, 'stalled');
    spawnSync('mkfifo', [fifo]);
    // Open for reading and writing, without blocking: nobody reads until the test does.
    const pipe = openSync(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
    const told: string[] = [];
    const stalled = new LogDestination(pipe, {
      maxWaitingBytes: 256 * 1024,
      onTrouble: (message) => told.push(message),
    });
    try {
      const line = access(0);
      const count = Math.ceil((2 * 1024 * 1024) / line.length); // 2 MiB: the pipe takes 64 KiB, the limit 256 KiB
      for (let n = 0; n < count; n++) {
        stalled.append(line);
        if (n % 1000 === 999) await sleep(1);
      }
      expect(told).toHaveLength(1);
      expect(told[0]).toMatch(
        /^stdout has not taken \d+ bytes of log lines: dropping log lines until it takes them again$/,
      );
      // The reader comes back: everything still held is written, then the count of what was dropped is told.
      const reader = openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      let received = 0;
      const chunk = Buffer.alloc(64 * 1024);
      const ended = stalled.end();
      for (let idle = 0; idle < 20;) {
        let bytes = 0;
        try {
          bytes = fs.readSync(reader, chunk);
        } catch {
          bytes = 0; // EAGAIN: nothing yet
        }
        if (bytes > 0) {
          received += chunk.subarray(0, bytes).toString('latin1').split('\n').length - 1;
          idle = 0;
        } else {
          idle++;
          await sleep(60);
        }
      }
      await ended;
      fs.closeSync(reader);
      expect(told).toHaveLength(2);
      const dropped = Number(/takes lines again; (\d+) were dropped$/.exec(told[1] ?? '')?.[1]);
      expect(dropped).toBeGreaterThan(0);
      expect(received + dropped).toBe(count);
      // What was held never passed the limit plus one batch and the pipe's own buffer.
      expect(received * line.length).toBeLessThan(256 * 1024 + 2 * ACCESS_BATCH_BYTES + 128 * 1024);
    } finally {
      fs.closeSync(pipe);
    }
  });

  it("writes straight to another logger's stream (a test's)", () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    accessLineWriter(logger)(access(7));
    expect(lines).toEqual([access(7)]);
  });
});

describe('on stdout, in a process of its own', () => {
  /** A process writing `lines` access lines to stdout through the service's destination, then ending as `how` says. */
  function run(how: string, lines: number): { stdout: string; status: number | null } {
    const module = join(ROOT, 'src/observability/log-destination.ts');
    const script = `
      import { stdoutDestination } from ${JSON.stringify(module)};
      const destination = stdoutDestination();
      for (let n = 0; n < ${lines}; n++) destination.append('{"msg":"request","n":' + n + '}\\n');
      ${how}
    `;
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 20_000,
    });
    return { stdout: result.stdout, status: result.status };
  }

  it.each([
    ['process.exit', 'process.exit(3);', 3],
    ['an uncaught error', 'setImmediate(() => { throw new Error("fatal"); });', 1],
    ['the event loop running out', '', 0],
  ])('writes the batch on %s', (_name, how, status) => {
    const result = run(how, 1000);
    expect(result.status).toBe(status);
    const lines = result.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1000);
    expect(lines.map((line) => (JSON.parse(line) as { n: number }).n)).toEqual(
      Array.from({ length: 1000 }, (_, n) => n),
    );
  });

  it('waits for a reader that is slow to take 2 MB, then a graceful end has written every line, in order', async () => {
    const module = join(ROOT, 'src/observability/log-destination.ts');
    const script = `
      import pino from 'pino';
      import { accessLineWriter, endLog, stdoutDestination } from ${JSON.stringify(module)};
      process.stdout; // Node makes a pipe non-blocking: full, it refuses writes for a while (EAGAIN)
      const logger = pino({ level: 'info' }, stdoutDestination());
      const writeAccess = accessLineWriter(logger);
      for (let n = 0; n < 10000; n++) {
        writeAccess('{"msg":"request","n":' + n + ',"pad":"' + 'x'.repeat(150) + '"}\\n');
        if (n % 1000 === 999) await new Promise((resolve) => setImmediate(resolve));
      }
      logger.info('last');
      await endLog(logger);
      process.exit(0);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const ended = new Promise((resolve) => child.stdout.once('end', resolve));
    child.stdout.pause();
    await sleep(1000); // the pipe fills up meanwhile
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stdout.resume();
    expect(await exited).toBe(0);
    await ended;
    const lines = stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { msg: string; n?: number });
    expect(lines.map((line) => line.n ?? line.msg)).toEqual([...Array.from({ length: 10000 }, (_, n) => n), 'last']);
  });
});
