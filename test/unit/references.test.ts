import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { anchorOf, checkedFiles, findingsIn } from '../helpers/doc-references.js';

/**
 * Every reference in a comment or a doc can be followed from a clone: no citation of a document the repository does
 * not hold (the contract lives in docs/contract.md), and every docs/ path, markdown link and #anchor names a file and
 * a heading that exist.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Probes are checked in memory against this markdown, as if it were a file named probe.md in docs/. */
const PROBE_DOC = '# Probe\n\n## Delivery rules\n\ntext\n\n## Delivery rules\n';
const readProbe = (path: string) => (path === join(ROOT, 'docs', 'probe.md') ? PROBE_DOC : undefined);
const problems = (path: string, text: string) =>
  findingsIn(ROOT, path, text, readProbe).map((finding) => finding.problem);

describe('references in comments and docs', () => {
  it('refuses a comment citing the old contract files or an issue number', () => {
    expect(problems('src/x.ts', '// Closed, as SPEC "Limits" says.\nconst a = 1;')).toEqual(['cites SPEC: SPEC']);
    expect(problems('src/x.ts', '/** DECISIONS.md: at most 10. */\nconst a = 1;')).toEqual([
      'cites DECISIONS: DECISIONS',
    ]);
    expect(problems('console/src/x.tsx', 'const a = <div>{/* opt-in (issue 16) */}</div>;')).toEqual([
      'cites an issue number: issue 16',
    ]);
    expect(problems('docs/x.md', 'Beyond the contract (Issue #17).')).toEqual(['cites an issue number: Issue #17']);
  });

  it('leaves strings alone: they are what the service answers, not references', () => {
    const source = "const d = 'Beyond SPEC: the cursor';\nconst t = `issue 16 ${d} DECISIONS`;\nconst r = /SPEC/;";
    expect(problems('src/x.ts', source)).toEqual([]);
  });

  it('refuses a docs/ path or link to a file or heading that does not exist', () => {
    expect(problems('src/x.ts', '// see docs/probe.md#delivery-rules and docs/probe.md#delivery-rules-1')).toEqual([]);
    expect(problems('src/x.ts', '// see docs/probe.md#delivery-rule')).toEqual([
      'links docs/probe.md#delivery-rule, a heading docs/probe.md does not have',
    ]);
    expect(problems('src/x.ts', '// see docs/probe.md#probe, #kv')).toEqual([
      'links docs/probe.md#kv, a heading docs/probe.md does not have',
    ]);
    expect(problems('src/x.ts', '// see docs/missing.md')).toEqual(['links docs/missing.md, which does not exist']);
    expect(problems('docs/other.md', 'See [the rules](probe.md#delivery-rules) and [this](#nowhere).')).toEqual([
      'links #nowhere, a heading docs/other.md does not have',
    ]);
    expect(problems('README.md', '![a picture](docs/screenshots/none.png)')).toEqual([
      'links docs/screenshots/none.png, which does not exist',
    ]);
  });

  it('makes anchors as GitHub does: lower case, punctuation dropped, spaces as hyphens', () => {
    expect(anchorOf('While the database is away')).toBe('while-the-database-is-away');
    expect(anchorOf('Browsers (CORS)')).toBe('browsers-cors');
    expect(anchorOf('Operator API (only when `ADMIN_TOKEN` is set)')).toBe('operator-api-only-when-admin_token-is-set');
    expect(anchorOf('Platform (Node.js lines, container image)')).toBe('platform-nodejs-lines-container-image');
  });

  it('finds nothing to follow that leads nowhere in the tree', () => {
    const files = checkedFiles(ROOT);
    expect(files).toContain('README.md');
    expect(files).toContain(join('docs', 'contract.md'));
    expect(files).toContain(join('src', 'errors.ts'));
    const findings = files.flatMap((path) => findingsIn(ROOT, path, readFileSync(join(ROOT, path), 'utf8')));
    expect(findings.map((finding) => `${finding.file}:${finding.line}: ${finding.problem}`)).toEqual([]);
  });
});
