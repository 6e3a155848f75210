import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every engine difference lives in src/store/: no engine's SQL (column arrays, casts, commit modes, row-lock tails) and no
// engine's handle is written elsewhere. The lint refuses engine imports; this reads the source for what imports cannot show.
const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const outsideStore = sourceFiles(SRC)
  .map((path) => ({ path: relative(SRC, path).split('\\').join('/'), text: readFileSync(path, 'utf8') }))
  .filter((file) => !file.path.startsWith('store/'));

const naming = (pattern: RegExp): string[] =>
  outsideStore.filter((file) => pattern.test(file.text)).map((file) => file.path);

describe('engines stay in the store', () => {
  it('the source tree was found', () => {
    expect(outsideStore.some((file) => file.path === 'ledger/ledger.ts')).toBe(true);
  });

  it('no statement outside src/store/ binds column arrays or casts to an engine type', () => {
    expect(naming(/\bunnest\s*\(|::(?:bigint|int|text|bytea)\b/)).toEqual([]);
  });

  it("no statement outside src/store/ sets its commit's mode or writes a row-lock tail", () => {
    expect(naming(/set_config\s*\(|synchronous_commit|FOR UPDATE/)).toEqual([]);
  });

  it("nothing outside src/store/ reaches for SQLite's writer lane or an engine's constant", () => {
    expect(naming(/\.lane\b|postgresAlso|\bPOSTGRES_[A-Z]/)).toEqual([]);
  });
});
