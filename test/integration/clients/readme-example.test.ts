import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachStore } from '../../helpers/each-store.js';
import { scratchDatabase } from '../../helpers/stores.js';
import type { ScratchDatabase } from '../../helpers/stores.js';
import { ensureBuilt, startWithNpmStart } from '../../helpers/npm-start.js';
import type { NpmStarted } from '../../helpers/npm-start.js';
import { ROOT, buildClient, run } from './run-cli.js';

/** The README's "Clients" section, up to the next section. */
function clientsSection(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Clients\n');
  expect(start, 'README.md has a "## Clients" section').toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

/** The fenced blocks of `language` in `text`, in order. */
const blocks = (text: string, language: string): string[] =>
  [...text.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1] ?? '');

/** A line of the shell example: the command, and its comment when that is one word (the output the README promises). */
function commandLines(block: string): { command: string; output: string | undefined }[] {
  return block
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [command = '', comment] = line.split(/\s+#\s+/, 2);
      return {
        command: command.trim(),
        output: comment !== undefined && !/\s/.test(comment.trim()) ? comment.trim() : undefined,
      };
    });
}

beforeAll(async () => {
  const build = await buildClient();
  expect(build, build.stdout).toMatchObject({ code: 0 });
  ensureBuilt();
}, 180_000);

describeEachStore("the README's clients example, run as written", (kind) => {
  // The service as the README starts it: `npm start`, on this store.
  let service: NpmStarted;
  let database: ScratchDatabase;
  let home: string;
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'coinop-readme-'));
    database = await scratchDatabase(kind);
    service = await startWithNpmStart({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    await database?.drop();
    rmSync(home, { recursive: true, force: true });
  }, 30_000);

  it('names files that exist, runs each command in the repository folder, and prints what its comments say', async () => {
    const section = clientsSection();
    const [shell] = blocks(section, 'sh').filter((block) => block.includes('npx coinop token new --save'));
    const [sdk] = blocks(section, 'js');
    expect(shell, 'a shell block starting with coinop token new --save').toBeDefined();
    expect(sdk, 'the SDK example').toBeDefined();

    // The SDK example is a file of the repository, shown whole.
    const file = /^\/\/ (\S+):/.exec(sdk ?? '')?.[1] ?? '';
    expect(existsSync(join(ROOT, file)), `${file} exists`).toBe(true);
    expect(readFileSync(join(ROOT, file), 'utf8')).toBe(sdk);
    const sdkOutput = [...(sdk ?? '').matchAll(/console\.log\(.*\/\/ (.+)$/gm)].map((match) => match[1]);

    // A newcomer's machine: a fresh home, no settings. `npm start` serves on a free port rather than 8080 (COINOP_URL only
    // for the first command: token new --save keeps the URL, and everything after it reads the saved file).
    const env = { HOME: home };
    for (const [index, { command, output }] of commandLines(shell ?? '').entries()) {
      const result = await run('sh', ['-c', command], index === 0 ? { ...env, COINOP_URL: service.url } : env, ROOT);
      expect(result, command).toMatchObject({ code: 0 });
      if (output !== undefined) expect(result.stdout, command).toBe(`${output}\n`);
      if (command.startsWith('node '))
        expect(result.stdout, command).toBe(sdkOutput.map((line) => `${line}\n`).join(''));
    }
    expect(existsSync(join(home, '.config', 'coinop', 'config.json')), 'the config file the README names').toBe(true);
  });
});
