import type { Coinop } from '../../client.js';
import { integer, required } from '../command.js';
import { UsageError } from '../exit-codes.js';
import { logTable } from '../log-table.js';
import { fields, nextPageNote, table, when } from '../output.js';
import type { AdminWalletLogsQuery, AdminWalletsQuery } from '../../types.js';
import type { AdminCall } from './admin.js';

type Sort = NonNullable<AdminWalletsQuery['sort']>;
const SORTS: readonly Sort[] = ['lastUsed', 'balance', 'created'];

/** `--limit` and `--cursor`: the paging of GET /manage/wallets and its logs. */
function paging(call: AdminCall): { limit?: number; cursor?: string } {
  const limit = integer(call.values.limit, 'limit');
  return {
    ...(limit === undefined ? {} : { limit }),
    ...(call.values.cursor === undefined ? {} : { cursor: call.values.cursor }),
  };
}

export async function listWallets(call: AdminCall, client: Coinop): Promise<void> {
  if (call.positionals.length > 1) throw new UsageError('admin list takes no <token|hash>: see admin wallets');
  call.only('admin list', 1, ['sort', 'limit', 'cursor']);
  const sort = call.values.sort;
  if (sort !== undefined && !SORTS.includes(sort as Sort)) throw new UsageError(`--sort is one of ${SORTS.join(', ')}`);
  const result = await client.adminWallets({ ...paging(call), ...(sort === undefined ? {} : { sort: sort as Sort }) });
  const { wallets, cursor } = result.data;
  call.out.result(result.data, result, () =>
    wallets.length === 0
      ? '(no wallets)'
      : table(
          ['HASH', 'BALANCE', 'CREATED', 'LAST USED'],
          wallets.map((wallet) => [wallet.hash, wallet.wallet, when(wallet.created), when(wallet.lastUsed)]),
        ),
  );
  nextPageNote(call.out, 'wallets', cursor);
}

export async function showWallet(call: AdminCall, client: Coinop): Promise<void> {
  call.only(`admin ${call.positionals[0] ?? ''}`, 2);
  const result = await client.adminWallet(required(call.positionals, 1, 'token|hash'));
  call.out.result(result.data, result, () => fields(result.data));
}

export async function walletLogs(call: AdminCall, client: Coinop): Promise<void> {
  call.only('admin logs', 2, ['type', 'limit', 'cursor']);
  const wallet = required(call.positionals, 1, 'token|hash');
  // The service checks the category (400 naming the allowed ones), as for `coinop logs --type`.
  const type = call.values.type as AdminWalletLogsQuery['type'];
  const result = await client.adminWalletLogs(wallet, { ...paging(call), ...(type === undefined ? {} : { type }) });
  const { logs, cursor } = result.data;
  call.out.result(result.data, result, () => (logs.length === 0 ? '(no entries)' : logTable(logs)));
  nextPageNote(call.out, 'entries', cursor);
}

export async function serviceStats(call: AdminCall, client: Coinop): Promise<void> {
  if (call.positionals.length > 1) throw new UsageError('admin stats takes no arguments');
  call.only('admin stats', 1, ['days']);
  const days = integer(call.values.days, 'days');
  const result = await client.adminStats(days === undefined ? {} : { days });
  const { wallets, credits, spentPerDay } = result.data;
  call.out.result(result.data, result, () =>
    [
      fields({ wallets, credits }),
      table(
        ['DAY', 'SPENT'],
        spentPerDay.map((day) => [day.day, day.credits]),
      ),
    ].join('\n\n'),
  );
}
