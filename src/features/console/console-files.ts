/**
 * The built console (dist/console, written by scripts/build-console.ts), read once into memory at start: a handful of
 * small files, each with its gzip and brotli forms, so serving one is a lookup and a write.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ConsoleFile {
  readonly type: string;
  readonly identity: Buffer;
  readonly gzip: Buffer;
  readonly brotli: Buffer;
}

export interface ConsoleFiles {
  readonly index: ConsoleFile;
  /** Content-hashed assets by file name (`app-<hash>.js`). */
  readonly assets: ReadonlyMap<string, ConsoleFile>;
}

/** src/features/console and dist/features/console are both three levels below the project root. */
export const CONSOLE_DIR = fileURLToPath(new URL('../../../dist/console/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

function readFile(dir: string, name: string): ConsoleFile | undefined {
  const type = TYPES[name.slice(name.lastIndexOf('.'))];
  if (type === undefined) return undefined;
  const path = join(dir, name);
  return { type, identity: readFileSync(path), gzip: readFileSync(`${path}.gz`), brotli: readFileSync(`${path}.br`) };
}

/** The built console, or undefined when it was not built (a checkout without `npm run build`). */
export function loadConsoleFiles(dir = CONSOLE_DIR): ConsoleFiles | undefined {
  const index = existsSync(join(dir, 'index.html')) ? readFile(dir, 'index.html') : undefined;
  if (index === undefined) return undefined;
  const assets = new Map<string, ConsoleFile>();
  for (const name of readdirSync(join(dir, 'assets'))) {
    const file = name.endsWith('.gz') || name.endsWith('.br') ? undefined : readFile(join(dir, 'assets'), name);
    if (file !== undefined) assets.set(name, file);
  }
  return { index, assets };
}

let loaded: { files: ConsoleFiles | undefined } | undefined;

/** The built console, read on first use and kept for the process (every app built in it serves the same files). */
export function consoleFiles(): ConsoleFiles | undefined {
  loaded ??= { files: loadConsoleFiles() };
  return loaded.files;
}
