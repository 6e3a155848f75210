import { describe, expect, it } from 'vitest';
import {
  checkName,
  checkValue,
  parseTtl,
  MAX_NAME_LENGTH,
  MAX_TTL_SECONDS,
  MAX_VALUE_LENGTH,
} from '../../../src/features/kv/kv.rules.js';

const TTL_RULE = 'Invalid ttl: must be an integer from 0 to 2592000';

describe('kv rules: limits', () => {
  it('are 30-character names, 1000-character values and a 30-day ttl', () => {
    expect([MAX_NAME_LENGTH, MAX_VALUE_LENGTH, MAX_TTL_SECONDS]).toEqual([30, 1000, 30 * 24 * 3600]);
  });
});

describe('checkName', () => {
  it.each([
    'a',
    'user:42',
    'a.b',
    'x@y',
    'with space',
    'UPPER',
    '-',
    '--',
    'reserved',
    'a'.repeat(30),
    'é'.repeat(30),
    '😀'.repeat(30),
    '中文名字',
    '%41',
    '\u0080',
    '\u00a0',
  ])('accepts %j as bucket and as key', (name) => {
    expect(checkName('bucket', name)).toBeNull();
    expect(checkName('key', name)).toBeNull();
  });

  it('refuses . and .. as bucket and key (URLs resolve them away), not as a cursor', () => {
    for (const name of ['.', '..']) {
      expect(checkName('bucket', name)).toBe('Invalid bucket: . and .. cannot be sent as a path segment');
      expect(checkName('key', name)).toBe('Invalid key: . and .. cannot be sent as a path segment');
      expect(checkName('cursor', name)).toBeNull();
    }
    expect(checkName('key', '...')).toBeNull();
  });

  it('counts code points, not UTF-16 units: 30 emoji pass, 31 do not', () => {
    expect('😀'.repeat(30)).toHaveLength(60);
    expect(checkName('key', '😀'.repeat(30))).toBeNull();
    expect(checkName('key', '😀'.repeat(31))).toBe('Invalid key: must be 1 to 30 characters');
  });

  it.each([
    ['empty', ''],
    ['31 characters', 'a'.repeat(31)],
    ['31 accented characters', 'é'.repeat(31)],
  ])('refuses a name that is %s', (_name, value) => {
    expect(checkName('bucket', value)).toBe('Invalid bucket: must be 1 to 30 characters');
    expect(checkName('key', value)).toBe('Invalid key: must be 1 to 30 characters');
  });

  it.each(['\u0000', '\u0009', '\n', '\r', '\u001b', '\u001f', '\u007f', '/', 'a/b', '/a', 'a/'])(
    'refuses the character %j anywhere in a name',
    (bad) => {
      expect(checkName('bucket', `x${bad}y`)).toBe('Invalid bucket: must not contain control characters or /');
      expect(checkName('key', bad)).toBe('Invalid key: must not contain control characters or /');
    },
  );

  it('checks length before characters', () => {
    expect(checkName('key', '/'.repeat(31))).toBe('Invalid key: must be 1 to 30 characters');
  });

  it.each(['reserved-', 'reserved-x', 'reserved-reserved'])('refuses the bucket %j but accepts it as a key', (name) => {
    expect(checkName('bucket', name)).toBe('Invalid bucket: must not start with reserved-');
    expect(checkName('key', name)).toBeNull();
  });

  it.each(['Reserved-x', 'RESERVED-x', 'x-reserved-', 'reserved_x', ' reserved-x'])(
    'accepts the bucket %j (the prefix rule is exact and case-sensitive)',
    (name) => {
      expect(checkName('bucket', name)).toBeNull();
    },
  );

  it.each(['---', 'a---', 'a----', 'reserve---'])(
    'refuses the bucket %j ending with --- but accepts it as a key',
    (name) => {
      expect(checkName('bucket', name)).toBe('Invalid bucket: must not end with ---');
      expect(checkName('key', name)).toBeNull();
    },
  );

  it.each(['a--', '---a', 'a-- -', 'a—'])('accepts the bucket %j that does not end with ---', (name) => {
    expect(checkName('bucket', name)).toBeNull();
  });
});

describe('checkValue', () => {
  it.each([
    ['empty', ''],
    ['1000 ASCII characters', 'a'.repeat(1000)],
    ['1000 emoji (4000 bytes)', '😀'.repeat(1000)],
    ['1000 mixed characters', '€'.repeat(400) + '😀'.repeat(300) + 'a'.repeat(300)],
    ['control characters and newlines', '\u0000\n\r\t'.repeat(10)],
  ])('accepts a value that is %s', (_name, value) => {
    expect(checkValue(value)).toBeNull();
  });

  it.each([
    ['1001 ASCII characters', 'a'.repeat(1001)],
    ['1001 emoji', '😀'.repeat(1001)],
    ['1000 emoji and one more letter', `${'😀'.repeat(1000)}a`],
  ])('refuses a value of %s', (_name, value) => {
    expect(checkValue(value)).toBe('Invalid value: must be at most 1000 characters');
  });
});

describe('parseTtl', () => {
  it('gives 30 days when ttl is absent', () => {
    expect(parseTtl(undefined)).toEqual({ ok: true, seconds: 2_592_000 });
  });

  it.each([
    ['0', 2_592_000],
    ['1', 1],
    ['5', 5],
    ['60', 60],
    ['2591999', 2_591_999],
    ['2592000', 2_592_000],
    ['007', 7],
  ])('reads ttl=%s as %i seconds', (raw, seconds) => {
    expect(parseTtl(raw)).toEqual({ ok: true, seconds });
  });

  it.each([
    '',
    ' ',
    '1.5',
    '1.0',
    '-1',
    '+5',
    '2592001',
    '99999999',
    '123456789',
    'abc',
    '1e3',
    '0x10',
    ' 5',
    '5 ',
    '５',
    'Infinity',
    'NaN',
  ])('refuses ttl=%j', (raw) => {
    expect(parseTtl(raw)).toEqual({ ok: false, error: TTL_RULE });
  });
});
