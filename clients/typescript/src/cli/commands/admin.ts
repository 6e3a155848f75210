import type { Command, Invocation } from '../command.js';
import { invocation } from '../command.js';
import { UsageError } from '../exit-codes.js';
import type { Coinop } from '../../client.js';
import { creditWallet, debitWallet, deleteWallet } from './admin-changes.js';
import { listWallets, serviceStats, showWallet, walletLogs } from './admin-reads.js';
import { prices } from '../price.js';

/** Every option of the admin subcommands; each reads its own. */
const ADMIN_OPTIONS = {
  reason: { type: 'string' },
  sort: { type: 'string' },
  limit: { type: 'string', short: 'n' },
  cursor: { type: 'string' },
  type: { type: 'string' },
  days: { type: 'string' },
  yes: { type: 'boolean', default: false },
} as const;

export type AdminCall = Invocation<typeof ADMIN_OPTIONS>;
type Subcommand = (call: AdminCall, client: Coinop) => Promise<void>;

const SUBCOMMANDS: Readonly<Record<string, Subcommand>> = {
  list: listWallets,
  wallets: showWallet,
  wallet: showWallet,
  logs: walletLogs,
  stats: serviceStats,
  credit: creditWallet,
  debit: debitWallet,
  delete: deleteWallet,
};

export const adminCommand: Command = {
  summary: `operator API (ADMIN_TOKEN): list, wallets, logs, stats, credit, debit, delete (${prices({ list: 'walletList', wallets: 'walletGet', logs: 'walletLogs', stats: 'serviceStats', credit: 'walletCredit', debit: 'walletDebit', delete: 'walletDelete' })})`,
  usage: [
    'coinop admin list [--sort lastUsed|balance|created] [-n|--limit count] [--cursor c]   (one page of wallets)',
    'coinop admin wallets <token|hash>',
    'coinop admin logs <token|hash> [--type kv|token|manage|…] [-n|--limit count] [--cursor c]',
    'coinop admin stats [--days 1-90]',
    'coinop admin credit <token|hash> <amount> [--reason text]',
    'coinop admin debit <token|hash> <amount> [--reason text]   (all or nothing)',
    'coinop admin delete <token|hash> --yes                     (the wallet and all its data, irreversibly)',
  ].join('\n'),
  async run(args) {
    const call = invocation(args, ADMIN_OPTIONS);
    const [sub] = call.positionals;
    if (call.settings.adminToken === undefined) throw new UsageError('set ADMIN_TOKEN to the service operator token');
    const subcommand = sub === undefined ? undefined : SUBCOMMANDS[sub];
    if (subcommand === undefined)
      throw new UsageError(sub === undefined ? 'missing subcommand' : `unknown subcommand: ${sub}`);
    await subcommand(call, call.client(false));
  },
};
