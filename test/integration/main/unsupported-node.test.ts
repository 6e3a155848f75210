import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CHECK = 'scripts/check-node.cjs';
const LINE =
  /^coinop: Node\.js v\S+ is not supported \(it needs 22\.13 or newer: 22, 24 or 26\); run it with Node 26 from the npm registry: npx -y -p node@26 -- .+\n$/;

/** Runs the check on the current Node binary, told it is `version` (how an older Node would report itself). */
function checkAs(version: string, lifecycleEvent: string): { status: number | null; stderr: string } {
  const pretend = `Object.defineProperty(process, 'version', { value: 'v${version}' }); Object.defineProperty(process.versions, 'node', { value: '${version}' });`;
  const result = spawnSync(process.execPath, ['-e', `${pretend} require('./${CHECK}')`], {
    cwd: ROOT,
    env: { ...process.env, npm_lifecycle_event: lifecycleEvent },
    encoding: 'utf8',
  });
  return { status: result.status, stderr: result.stderr };
}

/** The machine's own older Node (Debian's /usr/bin/node here), when it has one below the supported lines. */
function olderNode(): string | undefined {
  const candidate = '/usr/bin/node';
  if (!existsSync(candidate)) return undefined;
  const major = Number(
    execFileSync(candidate, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).trim(),
  );
  return major < 22 ? candidate : undefined;
}

describe('an unsupported Node is refused with one line', () => {
  it.each(['20.20.2', '22.12.0', '18.20.8'])(
    'Node %s: exit 1, one line naming the version, the supported lines and the npx command',
    (version) => {
      const { status, stderr } = checkAs(version, 'preinstall');
      expect(status).toBe(1);
      expect(stderr).toMatch(LINE);
      expect(stderr).toContain(`Node.js v${version} is not supported`);
      expect(stderr).toContain(`npx -y -p node@26 -- sh -c 'npm ci && npm start'`);
    },
  );

  it.each(['22.13.0', '24.21.0', '26.12.1', '27.0.0'])('Node %s passes silently', (version) => {
    expect(checkAs(version, 'preinstall')).toEqual({ status: 0, stderr: '' });
  });

  it('npm start suggests running npm start itself with Node 26', () => {
    expect(checkAs('20.20.2', 'start').stderr).toContain('npx -y -p node@26 -- npm start\n');
  });

  it('package.json runs the check before npm installs anything of its own and before npm start serves', () => {
    const scripts = JSON.parse(
      execFileSync('npm', ['pkg', 'get', 'scripts'], { cwd: ROOT, encoding: 'utf8' }),
    ) as Record<string, string>;
    expect(scripts.preinstall).toBe(`node ${CHECK}`);
    expect(scripts.start).toMatch(new RegExp(`^node ${CHECK.replace('.', '\\.')} \\|\\| exit 1; `));
  });

  const old = olderNode();
  it.runIf(old !== undefined)(
    `npm ci on the machine's older Node (${old ?? 'none'}) stops at once, naming the Node found, the lines supported and the command`,
    () => {
      // The project's manifests only, in a scratch folder: were the refusal to fail, npm would install there, not here.
      const scratch = mkdtempSync(join(tmpdir(), 'coinop-old-node-'));
      try {
        for (const file of ['package.json', 'package-lock.json', '.npmrc'])
          copyFileSync(join(ROOT, file), join(scratch, file));
        const started = Date.now();
        const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
          cwd: scratch,
          env: { ...process.env, PATH: `/usr/bin:${process.env.PATH ?? ''}` },
          encoding: 'utf8',
          timeout: 60_000,
        });
        expect(result.status).not.toBe(0);
        expect(Date.now() - started).toBeLessThan(10_000);
        expect(result.stderr).toMatch(/Actual: +\{"node":"v\d+\.\d+\.\d+"/);
        expect(result.stderr).toContain('"node":">=22.13"');
        expect(result.stderr).toContain(`npx -y -p node@26 -- sh -c 'npm ci && npm start'`);
        expect(existsSync(join(scratch, 'node_modules'))).toBe(false);
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    },
  );

  it.runIf(old !== undefined)(
    `npm start on the machine's older Node (${old ?? 'none'}) stops at once with that line, not a crash`,
    () => {
      const result = spawnSync('npm', ['start', '--silent'], {
        cwd: ROOT,
        env: { ...process.env, PATH: `/usr/bin:${process.env.PATH ?? ''}`, PORT: '0', SMTP_PORT: '0' },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(result.signal).toBeNull();
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(
        /^coinop: Node\.js v\d+\.\d+\.\d+ is not supported .* npx -y -p node@26 -- npm start$/m,
      );
    },
  );
});
