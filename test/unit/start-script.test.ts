import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * `npm start` refuses a dist/ older than the sources it was built from, and nothing else: its check (the part of the
 * package.json script before `exec`) run in a scratch tree whose times the test sets. A directory is not a source:
 * adding and removing a file in src/ (as a tool or a test does) must not stop a built tree from starting.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const startScript = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } })
  .scripts.start;
const check = startScript.slice(0, startScript.indexOf('exec '));

const BUILT = new Date('2026-06-01T12:00:00Z');
const BEFORE = new Date('2026-06-01T11:00:00Z');
const AFTER = new Date('2026-06-01T13:00:00Z');

describe("npm start's check of dist/", () => {
  let tree: string;
  const at = (path: string, time: Date) => utimesSync(join(tree, path), time, time);

  beforeEach(() => {
    tree = mkdtempSync(join(tmpdir(), 'coinop-start-check-'));
    for (const dir of ['dist', 'src/lib', 'console', 'scripts']) mkdirSync(join(tree, dir), { recursive: true });
    // The script's first step, the Node.js version check, runs as it does in the project (this Node passes it).
    copyFileSync(join(ROOT, 'scripts', 'check-node.cjs'), join(tree, 'scripts', 'check-node.cjs'));
    for (const file of ['dist/main.js', 'src/main.ts', 'src/lib/time.ts', 'console/index.html', 'tsconfig.build.json'])
      writeFileSync(join(tree, file), '');
    for (const path of [
      'src/main.ts',
      'src/lib/time.ts',
      'src/lib',
      'src',
      'console/index.html',
      'console',
      'tsconfig.build.json',
    ])
      at(path, BEFORE);
    at('dist/main.js', BUILT);
  });
  afterEach(() => rmSync(tree, { recursive: true, force: true }));

  const run = () => {
    const result = spawnSync('sh', ['-c', `${check} echo fresh`], { cwd: tree, encoding: 'utf8' });
    return { code: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  const refused = { code: 1, stdout: '', stderr: 'coinop: dist/ is missing or older than src/: run npm run build\n' };

  it('starts a tree built after its sources', () => {
    expect(run()).toEqual({ code: 0, stdout: 'fresh\n', stderr: '' });
  });

  it('starts it when only a directory of src/ changed since (a file added and removed)', () => {
    at('src/lib', AFTER);
    at('src', AFTER);
    expect(run()).toEqual({ code: 0, stdout: 'fresh\n', stderr: '' });
  });

  it.each(['src/lib/time.ts', 'console/index.html', 'tsconfig.build.json'])(
    'refuses it with one line when %s changed since',
    (path) => {
      at(path, AFTER);
      expect(run()).toEqual(refused);
    },
  );

  it('refuses a tree with no dist/main.js', () => {
    rmSync(join(tree, 'dist/main.js'));
    expect(run()).toEqual(refused);
  });
});
