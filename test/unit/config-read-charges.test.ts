import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(env)} was accepted`);
}

describe('READ_CHARGES and READ_CHARGE_SYNC_MS', () => {
  it('default to deferred read charges made durable within 10 ms', () => {
    const config = loadConfig({});
    expect([config.readCharges, config.readChargeSyncMs]).toEqual(['deferred', 10]);
  });

  it('take durable or deferred (any case) and 1 to 1000 ms', () => {
    expect(loadConfig({ READ_CHARGES: 'durable' }).readCharges).toBe('durable');
    expect(loadConfig({ READ_CHARGES: ' Deferred ' }).readCharges).toBe('deferred');
    expect(loadConfig({ READ_CHARGE_SYNC_MS: '1' }).readChargeSyncMs).toBe(1);
    expect(loadConfig({ READ_CHARGE_SYNC_MS: '1000' }).readChargeSyncMs).toBe(1000);
  });

  it.each(['full', 'off', 'true', 'deferred,durable'])('refuses READ_CHARGES=%j', (value) => {
    expect(refusal({ READ_CHARGES: value })).toBe('Invalid READ_CHARGES: must be deferred or durable');
  });

  it.each(['0', '1001', '-5', '2.5', '10ms', '1e2', '00000010000'])('refuses READ_CHARGE_SYNC_MS=%j', (value) => {
    expect(refusal({ READ_CHARGE_SYNC_MS: value })).toBe(
      'Invalid READ_CHARGE_SYNC_MS: must be an integer from 1 to 1000 (milliseconds)',
    );
  });
});
