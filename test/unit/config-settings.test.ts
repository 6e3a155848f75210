import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { databaseLocation } from '../../src/startup-checks.js';

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(env)} was accepted`);
}

describe('settings with a syntax: refused with a ConfigError naming the variable', () => {
  it.each([
    ['OUTBOUND_ALLOW_CIDRS', '10.0.0.0/99'],
    ['OUTBOUND_ALLOW_CIDRS', '127.0.0.0/8, example.com'],
    ['OUTBOUND_ALLOW_CIDRS', '::1/129'],
    ['TRUST_PROXY', 'garbage'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', '10.0.0.0/255.0.255.0'],
    ['TRUST_PROXY', '10.0.0.1, true'],
    ['TRUST_PROXY', '2001:db8::/0'],
    ['HOST', 'not a host'],
    ['HOST', 'under_score.example'],
    ['SMTP_HOST', 'http://0.0.0.0'],
    ['MAIL_DOMAIN', 'mail example com'],
    ['MAIL_DOMAIN', '@example.com'],
    ['MAIL_DOMAIN', '192.0.2.1'],
    ['SMTP_URL', 'mail.example.com:587'],
    ['SMTP_URL', 'https://mail.example.com'],
    ['NOTIFY_FROM', 'nobody'],
    ['NOTIFY_FROM', 'a@b\nBcc: c@d'],
    ['DATABASE_URL', 'postgres://u@db:port/x'],
  ])('%s=%j', (variable, value) => {
    expect(refusal({ [variable]: value })).toMatch(new RegExp(`^Invalid ${variable}: `));
  });
});

describe('settings with a syntax: good values pass', () => {
  it('takes addresses and ranges for OUTBOUND_ALLOW_CIDRS', () => {
    expect(loadConfig({ OUTBOUND_ALLOW_CIDRS: '10.0.0.0/8, 192.0.2.7,fd00::/8' }).outboundAllowCidrs).toEqual([
      '10.0.0.0/8',
      '192.0.2.7',
      'fd00::/8',
    ]);
  });

  it('takes what Fastify takes for TRUST_PROXY, without blank entries', () => {
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8, 10.1.0.0/255.255.0.0, ::1, loopback,' }).trustProxy).toBe(
      '127.0.0.1,10.0.0.0/8,10.1.0.0/255.255.0.0,::1,loopback',
    );
  });

  it('takes IP addresses and host names for HOST and SMTP_HOST', () => {
    expect(loadConfig({ HOST: '::', SMTP_HOST: 'localhost' })).toMatchObject({ host: '::', smtpHost: 'localhost' });
    expect(loadConfig({ HOST: 'api.internal.example.com' }).host).toBe('api.internal.example.com');
  });

  it('takes smtp:// and smtps:// URLs, plain and named senders', () => {
    expect(
      loadConfig({ SMTP_URL: 'smtps://user:pass@mail.example.com:465', NOTIFY_FROM: 'Coinop <alerts@example.com>' }),
    ).toMatchObject({
      smtpUrl: 'smtps://user:pass@mail.example.com:465',
      notifyFrom: 'Coinop <alerts@example.com>',
    });
  });

  it('takes a PostgreSQL URL with a socket host or options', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres:///coinop?host=/var/run/postgresql' }).databaseUrl).toBe(
      'postgres:///coinop?host=/var/run/postgresql',
    );
  });
});

describe('databaseLocation: where the data is, never the credentials', () => {
  it('names the PostgreSQL host, port and database only', () => {
    expect(databaseLocation('postgres://coinop:s3cret@db.internal:6432/coinop?sslmode=require')).toBe(
      'PostgreSQL db.internal:6432/coinop',
    );
    expect(databaseLocation('postgresql://coinop:s3cret@db.internal/coinop')).toBe(
      'PostgreSQL db.internal:5432/coinop',
    );
    expect(databaseLocation('postgres:///coinop?host=/var/run/postgresql')).toBe(
      'PostgreSQL /var/run/postgresql:5432/coinop',
    );
  });

  it('gives the absolute SQLite path', () => {
    expect(databaseLocation('sqlite:/var/lib/coinop/coinop.db')).toBe('SQLite /var/lib/coinop/coinop.db');
    expect(databaseLocation('sqlite:data/coinop.db')).toBe(`SQLite ${process.cwd()}/data/coinop.db`);
  });
});
