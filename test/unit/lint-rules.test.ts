import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

/**
 * The architecture rules that `npm run lint` enforces really fire: probes that break them are linted with the
 * project's own configuration (eslint.config.js) and must be refused. Nothing is written into src/: a probe placed in
 * src/ is linted as text under its would-be path (the rules tested need no type information, so the type-aware
 * parsing, which needs files on disk, is turned off for them); the import cycle, which must be read from disk, is
 * written into a scratch folder of test/ that only this file uses.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRATCH = join(ROOT, 'test', '.lint-probes', randomBytes(4).toString('hex'));
const eslint = new ESLint({ cwd: ROOT, overrideConfig: [tseslint.configs.disableTypeChecked] });

afterAll(() => rmSync(SCRATCH, { recursive: true, force: true }));

const rulesOf = (results: ESLint.LintResult[]): string[] =>
  results.flatMap((result) => result.messages.map((message) => message.ruleId ?? message.message));

/** The rules a source placed at `relativePath` would break. */
async function rulesBrokenAt(relativePath: string, source: string): Promise<string[]> {
  return rulesOf(await eslint.lintText(source, { filePath: join(ROOT, relativePath) }));
}

describe('npm run lint', () => {
  it('refuses a core module that imports a feature', async () => {
    const source = "import { errors } from '../features/kv/kv.rules.js';\nexport const probe = errors;\n";
    expect(await rulesBrokenAt('src/http/zz-lint-probe.ts', source)).toContain('no-restricted-imports');
  }, 60_000);

  it('counts jobs/ as core: a job module that imports a feature is refused', async () => {
    const source = "import { errors } from '../features/kv/kv.rules.js';\nexport const probe = errors;\n";
    expect(await rulesBrokenAt('src/jobs/zz-lint-probe.ts', source)).toContain('no-restricted-imports');
  }, 60_000);

  it('refuses a core module that takes the whole Deps (the composition root, which names feature types)', async () => {
    const source = "import type { Deps } from '../deps.js';\nexport type Probe = Deps['ledger'];\n";
    expect(await rulesBrokenAt('src/delivery-core/zz-lint-probe.ts', source)).toContain('no-restricted-imports');
    expect(
      await rulesBrokenAt('src/store/sqlite/zz-lint-probe.ts', source.replace('../deps.js', '../../deps.js')),
    ).toContain('no-restricted-imports');
  }, 60_000);

  it('lets a core module take the ports it uses', async () => {
    const source = "import type { CorePorts } from '../ports.js';\nexport type Probe = Pick<CorePorts, 'ledger'>;\n";
    expect(await rulesBrokenAt('src/delivery-core/zz-lint-probe.ts', source)).not.toContain('no-restricted-imports');
  }, 60_000);

  it('refuses jobs/ importing delivery-core/, which runs on it (the two folders would import each other)', async () => {
    const source = "import { deliver } from '../delivery-core/index.js';\nexport const probe = deliver;\n";
    expect(await rulesBrokenAt('src/jobs/zz-lint-probe.ts', source)).toContain('no-restricted-imports');
  }, 60_000);

  it('refuses an import cycle through files on disk (the poller importing the retry worker that runs on it)', async () => {
    const source =
      "import { startRetryWorker } from '../delivery-core/retry-worker.js';\nexport const probe = startRetryWorker;\n";
    const poller = readFileSync(join(ROOT, 'src/jobs/poller.ts'), 'utf8');
    expect(await rulesBrokenAt('src/jobs/poller.ts', source + poller)).toContain('import-x/no-cycle');
  }, 60_000);

  it('refuses a feature that imports another feature past its index.ts', async () => {
    const source = "import { errors } from '../webhooks/webhook-rules.js';\nexport const probe = errors;\n";
    expect(await rulesBrokenAt('src/features/kv/zz-lint-probe.ts', source)).toContain('no-restricted-imports');
  }, 60_000);

  it('lets a feature import another feature through its index.ts', async () => {
    const source =
      "import { findMailboxWebhooks } from '../webhooks/index.js';\nexport const probe = findMailboxWebhooks;\n";
    expect(await rulesBrokenAt('src/features/kv/zz-lint-probe.ts', source)).not.toContain('no-restricted-imports');
  }, 60_000);

  it("refuses an engine's module outside src/store/, in the core and in a feature", async () => {
    const core =
      "import { BatchedDebits } from '../store/postgres/batched-debits.js';\nexport const probe = BatchedDebits;\n";
    expect(await rulesBrokenAt('src/ledger/zz-lint-probe.ts', core)).toContain('no-restricted-imports');
    const feature =
      "import type { SqliteStore } from '../../store/sqlite/sqlite-store.js';\nexport type Probe = SqliteStore;\n";
    expect(await rulesBrokenAt('src/features/kv/zz-lint-probe.ts', feature)).toContain('no-restricted-imports');
  }, 60_000);

  it("refuses an engine's constant outside src/store/, wherever it is exported from", async () => {
    const source = "import { POSTGRES_LOCKS } from '../store/intentions.js';\nexport const probe = POSTGRES_LOCKS;\n";
    expect(await rulesBrokenAt('src/jobs/zz-lint-probe.ts', source)).toContain('no-restricted-imports');
    expect(await rulesBrokenAt('src/http/zz-lint-probe.ts', source)).toContain('no-restricted-imports');
  }, 60_000);

  it("lets the store import its engines' modules and constants, and the rest of src/ the engine-neutral store", async () => {
    const inStore =
      "import { POSTGRES_SYNC_LATER } from './postgres/sync-later.js';\nexport const probe = POSTGRES_SYNC_LATER;\n";
    expect(await rulesBrokenAt('src/store/zz-lint-probe.ts', inStore)).not.toContain('no-restricted-imports');
    const neutral = "import type { Store } from '../store/store.js';\nexport type Probe = Store;\n";
    expect(await rulesBrokenAt('src/ledger/zz-lint-probe.ts', neutral)).not.toContain('no-restricted-imports');
  }, 60_000);

  it('refuses an import cycle', async () => {
    mkdirSync(SCRATCH, { recursive: true });
    const a = join(SCRATCH, 'probe-a.ts');
    const b = join(SCRATCH, 'probe-b.ts');
    writeFileSync(a, "import { b } from './probe-b.js';\nexport const a = (): number => b() + 1;\n");
    writeFileSync(b, "import { a } from './probe-a.js';\nexport const b = (): number => a() + 1;\n");
    expect(rulesOf(await eslint.lintFiles([a, b]))).toContain('import-x/no-cycle');
  }, 60_000);
});
