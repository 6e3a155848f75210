import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's src/ folder. */
export const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Every .ts file under `dir`, as absolute paths. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every .ts file under src/, its path relative to src/ (with `/`) and its text: for tests that read the source. */
export function sourceTexts(): { path: string; text: string }[] {
  return sourceFiles(SRC).map((path) => ({
    path: relative(SRC, path).split('\\').join('/'),
    text: readFileSync(path, 'utf8'),
  }));
}
