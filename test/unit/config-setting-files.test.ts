import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { checkSettingFiles } from '../../src/startup-checks.js';
import { selfSignedCertificate } from '../helpers/certificates.js';

/** The ConfigError message checkSettingFiles gives for `env`, or 'ok'. */
function judged(env: Record<string, string>): string {
  try {
    checkSettingFiles(loadConfig(env));
    return 'ok';
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
}

describe('settings that name files are read before the start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coinop-setting-files-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, content: string) => {
    writeFileSync(join(dir, name), content);
    return join(dir, name);
  };
  const first = selfSignedCertificate({ names: ['one.test'], days: 2 });
  const second = selfSignedCertificate({ names: ['two.test'], days: 2 });
  const cert = file('cert.pem', first.certPem);
  const key = file('key.pem', first.keyPem);
  const otherKey = file('other.key', second.keyPem);
  const text = file('notes.txt', 'not PEM\n');
  const database = `sqlite:${join(dir, 'coinop.db')}`;

  it('takes a certificate with its key, as paths or as PEM text, and a PEM CA file', () => {
    expect(judged({ DATABASE_URL: database, SMTP_TLS_CERT: cert, SMTP_TLS_KEY: key, OUTBOUND_CA_FILE: cert })).toBe(
      'ok',
    );
    expect(judged({ DATABASE_URL: database, SMTP_TLS_CERT: first.certPem, SMTP_TLS_KEY: first.keyPem })).toBe('ok');
  });

  it('names SMTP_TLS_KEY when the key belongs to another certificate', () => {
    expect(judged({ DATABASE_URL: database, SMTP_TLS_CERT: cert, SMTP_TLS_KEY: otherKey })).toBe(
      'Invalid SMTP_TLS_KEY: does not belong to the certificate in SMTP_TLS_CERT',
    );
  });

  it('names the file that is missing or is not what the setting wants', () => {
    expect(judged({ DATABASE_URL: database, SMTP_TLS_CERT: cert, SMTP_TLS_KEY: text })).toBe(
      'Invalid SMTP_TLS_KEY: is not a PEM private key',
    );
    expect(judged({ DATABASE_URL: database, SMTP_TLS_CERT: join(dir, 'gone.pem'), SMTP_TLS_KEY: key })).toBe(
      `Invalid SMTP_TLS_CERT: cannot read ${join(dir, 'gone.pem')} (ENOENT)`,
    );
    expect(judged({ DATABASE_URL: database, OUTBOUND_CA_FILE: text })).toBe(
      `Invalid OUTBOUND_CA_FILE: ${text} holds no PEM certificate`,
    );
  });

  it('refuses an SQLite file that is not a database, naming DATABASE_URL, or DATA_DIR when that chose it', () => {
    expect(judged({ DATABASE_URL: `sqlite:${text}` })).toBe(`Invalid DATABASE_URL: ${text} is not an SQLite database`);
    const dataDir = join(dir, 'data');
    file('data', 'a file where the directory should be');
    expect(judged({ DATA_DIR: dataDir })).toBe(`Invalid DATA_DIR: cannot create the directory ${dataDir} (EEXIST)`);
    expect(judged({ DATABASE_URL: `sqlite:${join(dir, 'new', 'coinop.db')}` })).toBe('ok');
  });
});
