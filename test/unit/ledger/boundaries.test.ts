import { describe, expect, it } from 'vitest';
import { sourceTexts } from '../../helpers/source-files.js';

// The ledger is the one writer of wallets and the call log, and the core never reaches into a feature:
// these read the source itself, so a shortcut added later fails here rather than in review.
const files = sourceTexts();
const under = (path: string, folders: readonly string[]) => folders.some((folder) => path.startsWith(`${folder}/`));
const containing = (needle: string, where: (path: string) => boolean) =>
  files.filter((file) => where(file.path) && file.text.includes(needle)).map((file) => file.path);

describe('ledger boundaries', () => {
  it('the source tree was found', () => {
    expect(files.some((file) => file.path === 'ledger/ledger.ts')).toBe(true);
  });

  it('no core module (http, store, outbound, lib, ledger) names a feature', () => {
    expect(containing('features/', (path) => under(path, ['http', 'store', 'outbound', 'lib', 'ledger']))).toEqual([]);
  });

  it('only the ledger and the store write the wallets table with an UPDATE', () => {
    expect(containing('UPDATE wallets', (path) => !under(path, ['ledger', 'store']))).toEqual([]);
  });

  it('only the ledger (and the schema) writes the call log', () => {
    for (const needle of ['INSERT INTO log_batches', "table: 'log_batches'", 'UPDATE log_batches'])
      expect(
        containing(needle, (path) => !under(path, ['ledger', 'store'])),
        needle,
      ).toEqual([]);
    // The needle is the ledger's own: the test fails if the log's bulk insert is renamed without it.
    expect(containing("table: 'log_batches'", (path) => under(path, ['ledger']))).toEqual(['ledger/log-insert.ts']);
  });
});

describe('retention: each owner deletes its own rows', () => {
  // The table, and the folder that owns it; besides the owner only the ledger's one wallet deletion removes rows.
  const owners: Readonly<Record<string, string>> = {
    log_batches: 'ledger',
    spend_hourly: 'ledger',
    kv: 'features/kv',
    token_creations: 'features/tokens',
    mail_attachments: 'features/mail',
    inbound_seen_messages: 'features/mail',
    deliveries: 'delivery-core',
    delivery_attempts: 'delivery-core',
  };
  for (const [table, owner] of Object.entries(owners)) {
    it(`only ${owner} deletes from ${table}`, () => {
      const deleting = files
        .filter((file) => new RegExp(`DELETE FROM ${table}\\b`).test(file.text))
        .map((file) => file.path);
      expect(deleting.filter((path) => !under(path, [owner]) && path !== 'ledger/wallet-deletion.ts')).toEqual([]);
    });
  }
});
