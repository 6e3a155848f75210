import { describe, expect, it } from 'vitest';
import { sourceTexts } from '../../helpers/source-files.js';

// Deliveries have one owner, src/delivery-core/: it signs every attempt and claims the outbox's entries, and the
// features hand it targets, keys and bodies. These read the source, so a second signer or claimer added later fails here.
const files = sourceTexts();
const matching = (pattern: RegExp, where: (path: string) => boolean) =>
  files.filter((file) => where(file.path) && pattern.test(file.text)).map((file) => file.path);
const inCore = (path: string) => path.startsWith('delivery-core/');

describe('delivery-core owns signing and the outbox', () => {
  it('the source tree was found', () => {
    expect(files.some((file) => file.path === 'delivery-core/deliver.ts')).toBe(true);
  });

  it('no delivery-core module names a feature', () => {
    expect(matching(/features\//, inCore)).toEqual([]);
  });

  it("no feature writes the signature headers (signing is delivery-core's)", () => {
    expect(matching(/webhook-(?:signature|timestamp)/, (path) => path.startsWith('features/'))).toEqual([]);
  });

  it('only delivery-core records, claims and deletes outbox entries (besides the wallet deletion)', () => {
    const writers = matching(
      /(?:INSERT INTO|UPDATE|DELETE FROM) inbound_outbox\b/,
      (path) => !inCore(path) && !path.startsWith('store/'),
    );
    expect(writers).toEqual([]);
    expect(matching(/(?:UPDATE|DELETE FROM) inbound_outbox\b/, inCore)).toEqual(['delivery-core/outbox.queries.ts']);
  });
});
