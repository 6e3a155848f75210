import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runServerToExit } from '../../helpers/server-process.js';

// An operator with a wrong setting gets one line naming it and exit code 2, not a stack trace.
describe('a start refused by a bad setting', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-refusal-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const database = `sqlite:${join(dir, 'coinop.db')}`;

  it('names a malformed PORT and exits with 2', async () => {
    const { code, stderr } = await runServerToExit({ DATABASE_URL: database, PORT: 'eighty' });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^coinop: Invalid PORT/);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('names a GEOIP_DB that is not a MaxMind database and exits with 2', async () => {
    const notADatabase = join(dir, 'geo.mmdb');
    writeFileSync(notADatabase, 'plain text, not a MaxMind database');
    for (const path of [notADatabase, join(dir, 'missing.mmdb')]) {
      const { code, stderr } = await runServerToExit({ DATABASE_URL: database, GEOIP_DB: path });
      expect(code).toBe(2);
      expect(stderr).toMatch(new RegExp(`^coinop: Invalid GEOIP_DB: cannot open ${path} as a MaxMind database`));
      expect(stderr).not.toMatch(/\n\s+at /);
    }
  });
});
