import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

/** Expects loadConfig(env) to throw a ConfigError whose message names `variable`. */
function expectRefused(env: Record<string, string>, variable: string) {
  let thrown: unknown;
  try {
    loadConfig(env);
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `${JSON.stringify(env)} should be refused`).toBeInstanceOf(ConfigError);
  expect((thrown as Error).message).toMatch(new RegExp(`^Invalid ${variable}: `));
}

describe('loadConfig defaults', () => {
  const config = loadConfig({});

  it('listens on 0.0.0.0:8080', () => {
    expect([config.host, config.port]).toEqual(['0.0.0.0', 8080]);
  });

  it('keeps data in ./data, with SQLite at data/coinop.db', () => {
    expect(config.dataDir).toBe('./data');
    expect(config.databaseUrl).toBe('sqlite:data/coinop.db');
  });

  it('hands out links under http://localhost:8080', () => {
    expect(config.publicUrl).toBe('http://localhost:8080');
  });

  it('receives mail on 0.0.0.0:2525 for localhost and sends as coinop@localhost', () => {
    expect([config.smtpHost, config.smtpPort, config.mailDomain, config.notifyFrom]).toEqual([
      '0.0.0.0',
      2525,
      'localhost',
      'coinop@localhost',
    ]);
  });

  it('logs at info and leaves optional features off', () => {
    expect(config.logLevel).toBe('info');
    expect(config.adminToken).toBeUndefined();
    expect(config.inboundSecret).toBeUndefined();
    expect(config.trustProxy).toBeUndefined();
    expect(config.smtpUrl).toBeUndefined();
    expect([config.smtpTlsCert, config.smtpTlsKey]).toEqual([undefined, undefined]);
    expect(config.dnsServers).toEqual([]);
    expect(config.outboundAllowCidrs).toEqual([]);
    expect(config.stripe.secretKey).toBeUndefined();
  });

  it('is frozen', () => {
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.stripe)).toBe(true);
  });
});

describe('loadConfig derived values', () => {
  it('puts the default SQLite file under DATA_DIR', () => {
    expect(loadConfig({ DATA_DIR: '/var/lib/coinop' }).databaseUrl).toBe('sqlite:/var/lib/coinop/coinop.db');
  });

  it('derives PUBLIC_URL from PORT', () => {
    expect(loadConfig({ PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
  });

  it('derives NOTIFY_FROM from MAIL_DOMAIN', () => {
    expect(loadConfig({ MAIL_DOMAIN: 'mail.example.com' }).notifyFrom).toBe('coinop@mail.example.com');
  });

  it('takes explicit values over defaults', () => {
    const config = loadConfig({
      PORT: '3000',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://u@db:5432/coinop',
      PUBLIC_URL: 'https://api.example.com/',
      SMTP_PORT: '0',
      NOTIFY_FROM: 'alerts@example.com',
      LOG_LEVEL: 'debug',
      ADMIN_TOKEN: 'a'.repeat(16),
      DNS_SERVERS: '1.1.1.1, 9.9.9.9:53,[2001:db8::1]:5353',
      SMTP_TLS_CERT: '/c.pem',
      SMTP_TLS_KEY: '/k.pem',
    });
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: 'postgres://u@db:5432/coinop',
      publicUrl: 'https://api.example.com',
      smtpPort: 0,
      notifyFrom: 'alerts@example.com',
      logLevel: 'debug',
      adminToken: 'a'.repeat(16),
      dnsServers: ['1.1.1.1', '9.9.9.9:53', '[2001:db8::1]:5353'],
      smtpTlsCert: '/c.pem',
      smtpTlsKey: '/k.pem',
    });
  });

  it('accepts sqlite: and postgresql:// database URLs', () => {
    expect(loadConfig({ DATABASE_URL: 'sqlite:/tmp/x.db' }).databaseUrl).toBe('sqlite:/tmp/x.db');
    expect(loadConfig({ DATABASE_URL: 'postgresql://h/db' }).databaseUrl).toBe('postgresql://h/db');
  });

  it('treats empty and blank variables as unset', () => {
    const config = loadConfig({ PORT: '', HOST: '  ', LOG_LEVEL: '', ADMIN_TOKEN: '' });
    expect([config.port, config.host, config.logLevel, config.adminToken]).toEqual([
      8080,
      '0.0.0.0',
      'info',
      undefined,
    ]);
  });
});

describe('loadConfig refuses bad values with a ConfigError naming the variable', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '80a'],
    ['PORT', '-1'],
    ['PORT', '65536'],
    ['PORT', '8080.5'],
    ['SMTP_PORT', 'smtp'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'sqlite:'],
    ['DATABASE_URL', 'data/coinop.db'],
    ['LOG_LEVEL', 'loud'],
    ['LOG_LEVEL', 'INFO'],
    ['ADMIN_TOKEN', 'short'],
    ['ADMIN_TOKEN', 'a'.repeat(15)],
    ['PUBLIC_URL', 'ftp://example.com'],
    ['PUBLIC_URL', 'not a url'],
    ['PUBLIC_URL', 'https://user:secret@example.com'],
    ['PUBLIC_URL', 'https://example.com?x=1'],
    ['PUBLIC_URL', 'https://example.com/#top'],
    ['DATABASE_URL', 'sqlite::memory:'],
    ['DATABASE_URL', 'sqlite:file::memory:?cache=shared'],
    ['DATABASE_URL', 'sqlite:file:data.db?mode=memory'],
    // A secret of only white space would leave its feature off (or /metrics open) while the operator believes it set.
    ['ADMIN_TOKEN', '   '],
    ['METRICS_TOKEN', ' \t '],
    ['INBOUND_SECRET', '  '],
    ['AI_BASE_URL', 'localhost:11434'],
  ])('%s=%j', (variable, value) => {
    expectRefused({ [variable]: value }, variable);
  });

  it('refuses SMTP_TLS_CERT without SMTP_TLS_KEY, naming the missing one', () => {
    expectRefused({ SMTP_TLS_CERT: '/c.pem' }, 'SMTP_TLS_KEY');
  });

  it('refuses SMTP_TLS_KEY without SMTP_TLS_CERT, naming the missing one', () => {
    expectRefused({ SMTP_TLS_KEY: '/k.pem' }, 'SMTP_TLS_CERT');
  });

  it('accepts an ADMIN_TOKEN of exactly 16 characters', () => {
    expect(loadConfig({ ADMIN_TOKEN: 'b'.repeat(16) }).adminToken).toBe('b'.repeat(16));
  });

  it.each(['dns.google', 'not-an-ip', '8.8.8.8;1.1.1.1', '8.8.8.8:dns', 'http://1.1.1.1', '1.1.1.1:53:53'])(
    'DNS_SERVERS=%j',
    (value) => {
      expectRefused({ DNS_SERVERS: value }, 'DNS_SERVERS');
    },
  );

  it.each(['300.1.1.1', '1.2.3', '1.2.3.4.5', '...', 'cafe', 'beef:dead', '8.8.8.8:70000'])(
    'DNS_SERVERS=%j, which only looks like ip[:port]',
    (value) => {
      expectRefused({ DNS_SERVERS: value }, 'DNS_SERVERS');
    },
  );
});
