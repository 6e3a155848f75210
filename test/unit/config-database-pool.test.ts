import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('DATABASE_POOL_SIZE', () => {
  it('defaults to 20 connections and takes 1 to 1000', () => {
    expect(loadConfig({}).databasePoolSize).toBe(20);
    expect(loadConfig({ DATABASE_POOL_SIZE: '1' }).databasePoolSize).toBe(1);
    expect(loadConfig({ DATABASE_POOL_SIZE: ' 64 ' }).databasePoolSize).toBe(64);
    expect(loadConfig({ DATABASE_POOL_SIZE: '1000' }).databasePoolSize).toBe(1000);
  });

  it.each(['0', '1001', '-5', '2.5', '20 connections', '1e2', 'many'])('refuses DATABASE_POOL_SIZE=%j', (value) => {
    expect(() => loadConfig({ DATABASE_POOL_SIZE: value })).toThrow(
      new ConfigError('DATABASE_POOL_SIZE', 'must be an integer from 1 to 1000 (connections)'),
    );
  });
});
