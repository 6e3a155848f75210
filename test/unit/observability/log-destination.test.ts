import { spawnSync } from 'node:child_process';
import fs, { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ACCESS_BATCH_CHARS,
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
    await destination.end(); // closes the file too
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

  it('writes a batch that reaches ACCESS_BATCH_CHARS at once', async () => {
    const line = access(0);
    const count = Math.ceil(ACCESS_BATCH_CHARS / line.length);
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
    // The warning did not wait for the batch's timer, and took the two access lines before it along.
    expect(written().map((line) => (JSON.parse(line) as { msg: string; n?: number }).n ?? line)).toEqual([
      expect.stringContaining('"first"'),
      1,
      2,
      expect.stringContaining('"second"'),
    ]);
    await endLog(logger);
    expect(written()).toHaveLength(5);
    logger.info('after the end');
    writeAccess(access(4));
    await sleep(20);
    expect(written()).toHaveLength(5);
  });

  it("writes straight to another logger's stream (a test's)", () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    accessLineWriter(logger)(access(7));
    expect(lines).toEqual([access(7)]);
  });
});

describe('at exit', () => {
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
});
