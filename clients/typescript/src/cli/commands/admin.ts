import type { Command } from '../command.js';
import { invocation, required } from '../command.js';
import { UsageError } from '../exit-codes.js';
import { fields } from '../output.js';

export const adminCommand: Command = {
  summary: 'operator API (ADMIN_TOKEN): wallets, credit',
  usage: 'coinop admin wallets <token|hash>\ncoinop admin credit <token|hash> <amount> [--reason text]',
  async run(args) {
    const call = invocation(args, { reason: { type: 'string' } });
    const [sub] = call.positionals;
    if (call.settings.adminToken === undefined) throw new UsageError('set ADMIN_TOKEN to the service operator token');
    const client = call.client(false);
    const wallet = () => required(call.positionals, 1, 'token|hash');
    if (sub === 'wallets' || sub === 'wallet') {
      const result = await client.adminWallet(wallet());
      call.out.result(result.data, result, () => fields(result.data));
      return;
    }
    if (sub === 'credit') {
      const target = wallet();
      const amount = required(call.positionals, 2, 'amount');
      if (!/^\d+$/.test(amount)) throw new UsageError('<amount> must be a whole number');
      const result = await client.adminCredit(target, Number(amount), call.values.reason);
      call.out.result(result.data, result, () => fields(result.data));
      return;
    }
    throw new UsageError(sub === undefined ? 'missing subcommand' : `unknown subcommand: ${sub}`);
  },
};
