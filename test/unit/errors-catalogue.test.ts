import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { errors } from '../../src/errors.js';
import type { ErrorName } from '../../src/errors.js';

/**
 * Every entry of the error catalogue is answered somewhere and documented (in the style of fastify's
 * test/internals/errors.test.js): an entry nobody uses is dead wording, one missing from the reference
 * (docs/reference.md, Errors and HTTP) is a body clients cannot know.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REFERENCE = readFileSync(join(ROOT, 'docs', 'reference.md'), 'utf8');
const catalogueTable = REFERENCE.slice(REFERENCE.indexOf('| status | body | when |'));

/** Every source file of src/. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}
const code = sources(join(ROOT, 'src'))
  .filter((path) => !path.endsWith(join('src', 'errors.ts')))
  .map((path) => readFileSync(path, 'utf8'))
  .join('\n');

/** Entries whose body is the caller's text: the reference names them in the table instead. */
const PARAMETERISED: ReadonlySet<ErrorName> = new Set(['badRequest', 'invalidField', 'badGateway', 'unavailable']);
const SAMPLE_ARGS: Partial<Record<ErrorName, unknown[]>> = { methodNotAllowed: [['GET']], tooManyRequests: [3] };
const sample = (name: ErrorName) =>
  (errors[name] as (...args: unknown[]) => { statusCode: number; body: string })(
    ...(SAMPLE_ARGS[name] ?? ['field', 'rule']),
  );

describe('the error catalogue', () => {
  const names = Object.keys(errors) as ErrorName[];

  it.each(names)('%s is answered somewhere in src', (name) => {
    expect(code.includes(`errors.${name}(`), `errors.${name}() is never used`).toBe(true);
  });

  it.each(names)('%s is listed in docs/reference.md with its status and body', (name) => {
    const error = sample(name);
    const row = catalogueTable.split('\n').find((line) => line.trim().startsWith(`| ${error.statusCode} |`));
    expect(row, `no row in docs/reference.md for status ${error.statusCode}`).toBeDefined();
    if (PARAMETERISED.has(name)) expect(row).toContain(`\`${name}\``);
    else expect(row).toContain(`\`${error.body}\``);
  });
});
