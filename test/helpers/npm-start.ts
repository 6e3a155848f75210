import { execFileSync, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './server-process.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The newest modification time under `dir`. */
function newest(dir: string): number {
  return Math.max(
    ...readdirSync(dir, { withFileTypes: true }).map((entry) =>
      entry.isDirectory() ? newest(join(dir, entry.name)) : statSync(join(dir, entry.name)).mtimeMs,
    ),
  );
}

/** As `npm start` judges dist/: `npm ci` builds it (prepare); a tree whose sources changed since is built here. */
export function ensureBuilt(): void {
  const main = join(ROOT, 'dist', 'main.js');
  const sources = Math.max(
    newest(join(ROOT, 'src')),
    newest(join(ROOT, 'console')),
    statSync(join(ROOT, 'tsconfig.build.json')).mtimeMs,
  );
  if (existsSync(main) && statSync(main).mtimeMs >= sources) return;
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
}

/** True while any process of the group `pgid` is alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface NpmStarted {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  readonly output: () => string;
  readonly exited: Promise<number | null>;
  /** SIGTERM to npm, then whatever is left of its group is killed. */
  stop(): Promise<void>;
}

/**
 * The README's start command, `npm start`, in the project folder with `env` added (detached into its own process
 * group), once it answers `/healthz`.
 */
export async function startWithNpmStart(env: Record<string, string>): Promise<NpmStarted> {
  const port = await freePort();
  let output = '';
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', SMTP_PORT: '0', DNS_SERVERS: '127.0.0.1:9', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (
    !(await fetch(`${url}/healthz`)
      .then((r) => r.ok)
      .catch(() => false))
  ) {
    if (child.exitCode !== null || Date.now() > deadline) {
      if (child.pid !== undefined && groupAlive(child.pid)) process.kill(-child.pid, 'SIGKILL');
      throw new Error(`npm start did not serve:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const stop = async (): Promise<void> => {
    const pid = child.pid as number;
    if (child.exitCode === null) process.kill(pid, 'SIGTERM');
    const timer = setTimeout(() => groupAlive(pid) && process.kill(-pid, 'SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
    if (groupAlive(pid)) process.kill(-pid, 'SIGKILL');
  };
  return { url, port, child, output: () => output, exited, stop };
}
