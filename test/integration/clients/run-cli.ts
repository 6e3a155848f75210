import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const PACKAGE = join(ROOT, 'clients', 'typescript');
export const CLI = join(PACKAGE, 'dist', 'cli.js');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command in a child process (asynchronously: the service answering it may live in this process). */
export function run(
  command: string,
  args: readonly string[],
  env: Record<string, string>,
  cwd = PACKAGE,
  shell = false,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      shell,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Builds the package as `npm run build -w @coinop/client` does, so the tests run what the `bin` runs: dist/, from the current sources. */
export async function buildClient(): Promise<Run> {
  return run('npm', ['run', 'build'], {});
}
