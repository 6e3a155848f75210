import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

/**
 * The architecture rules that `npm run lint` enforces really fire: probe files that break them are
 * linted with the project's own configuration (eslint.config.js) and must be refused.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const probes: string[] = [];

function probe(relativePath: string, source: string): string {
  const path = join(ROOT, relativePath);
  writeFileSync(path, source);
  probes.push(path);
  return path;
}

afterAll(() => {
  for (const path of probes) rmSync(path, { force: true });
});

async function rulesBroken(paths: string[]): Promise<string[]> {
  const results = await new ESLint({ cwd: ROOT }).lintFiles(paths);
  return results.flatMap((result) => result.messages.map((message) => message.ruleId ?? message.message));
}

describe('npm run lint', () => {
  it('refuses a core module that imports a feature', async () => {
    const path = probe('src/http/zz-lint-probe.ts', "import { errors } from '../features/kv/kv.rules.js';\nexport const probe = errors;\n");
    expect(await rulesBroken([path])).toContain('no-restricted-imports');
  }, 60_000);

  it('refuses a feature that imports another feature past its index.ts', async () => {
    const path = probe('src/features/kv/zz-lint-probe.ts', "import { errors } from '../webhooks/webhook-rules.js';\nexport const probe = errors;\n");
    expect(await rulesBroken([path])).toContain('no-restricted-imports');
  }, 60_000);

  it('refuses an import cycle', async () => {
    const a = probe('src/lib/zz-lint-probe-a.ts', "import { b } from './zz-lint-probe-b.js';\nexport const a = (): number => b() + 1;\n");
    const b = probe('src/lib/zz-lint-probe-b.ts', "import { a } from './zz-lint-probe-a.js';\nexport const b = (): number => a() + 1;\n");
    expect(await rulesBroken([a, b])).toContain('import-x/no-cycle');
  }, 60_000);
});
