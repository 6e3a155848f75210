import type { Command } from '../command.js';
import { invocation } from '../command.js';
import { UsageError } from '../exit-codes.js';
import { fields } from '../output.js';
import { price, priced } from '../price.js';
import { configPath, saveConfigFile } from '../../settings.js';

export const tokenCommand: Command = {
  summary: `create a token (new [--save], ${price('tokenCreate')}) or show the wallet (info, ${price('tokenGet')})`,
  usage: [
    priced(
      'coinop token new [--save]',
      price('tokenCreate'),
      'create a token with the starting credits; --save writes it (and the URL) to the config file',
    ),
    priced('coinop token info', price('tokenGet'), 'balance, creation time and hash of the token'),
  ].join('\n'),
  async run(args) {
    const call = invocation(args, { save: { type: 'boolean', default: false } });
    const [sub] = call.positionals;
    if (sub === 'new') {
      call.only('token new', 1, ['save']);
      const result = await call.client(false).tokenNew();
      const token = result.data.trim();
      if (call.values.save === true) {
        const path = configPath();
        saveConfigFile(path, { url: call.settings.url, token });
        call.out.note(`saved to ${path}`);
      }
      call.out.result({ token }, undefined, () => token);
      return;
    }
    if (sub === 'info') {
      call.only('token info', 1);
      const result = await call.client().tokenInfo();
      call.out.result(result.data, result, () => fields(result.data));
      return;
    }
    throw new UsageError(sub === undefined ? 'missing subcommand' : `unknown subcommand: ${sub}`);
  },
};

export const balanceCommand: Command = {
  summary: `the wallet's balance (${price('tokenGet')})`,
  usage: priced('coinop balance', price('tokenGet')),
  async run(args) {
    const call = invocation(args, {});
    call.only('balance', 0);
    const result = await call.client().tokenInfo();
    call.out.result(result.data, result, () => String(result.data.wallet));
  },
};
