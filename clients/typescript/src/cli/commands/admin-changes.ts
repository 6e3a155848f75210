import type { Coinop } from '../../client.js';
import { required } from '../command.js';
import { UsageError } from '../exit-codes.js';
import { fields } from '../output.js';
import type { AdminCall } from './admin.js';

/** The wallet and the whole number of credits of `credit` and `debit`. */
function walletAndAmount(call: AdminCall): { wallet: string; amount: number } {
  call.only(`admin ${call.positionals[0] ?? ''}`, 3, ['reason']);
  const wallet = required(call.positionals, 1, 'token|hash');
  const amount = required(call.positionals, 2, 'amount');
  if (!/^\d+$/.test(amount)) throw new UsageError('<amount> must be a whole number');
  return { wallet, amount: Number(amount) };
}

export async function creditWallet(call: AdminCall, client: Coinop): Promise<void> {
  const { wallet, amount } = walletAndAmount(call);
  const result = await client.adminCredit(wallet, amount, call.values.reason);
  call.out.result(result.data, result, () => fields(result.data));
}

/** All or nothing: a balance that does not cover `amount` is 409 (exit 5) and nothing changes. */
export async function debitWallet(call: AdminCall, client: Coinop): Promise<void> {
  const { wallet, amount } = walletAndAmount(call);
  const result = await client.adminDebit(wallet, amount, call.values.reason);
  call.out.result(result.data, result, () => fields(result.data));
}

/** Deleting cannot be undone (the keys, webhooks and log go with the wallet), so it asks for --yes on the command line. */
export async function deleteWallet(call: AdminCall, client: Coinop): Promise<void> {
  call.only('admin delete', 2, ['yes']);
  const wallet = required(call.positionals, 1, 'token|hash');
  if (call.values.yes !== true)
    throw new UsageError('deleting a wallet and all its data is irreversible: add --yes to confirm');
  const result = await client.adminDelete(wallet);
  call.out.result(result.data, result, () => result.data);
}
