import type { Command } from '../command.js';
import { integer, invocation, required } from '../command.js';
import { UsageError } from '../exit-codes.js';
import { table, when } from '../output.js';
import { price, priced } from '../price.js';
import type { RechargeAmount, SpendQuery } from '../../types.js';

type Period = NonNullable<SpendQuery['by']>;
const PERIODS: readonly Period[] = ['day', 'hour'];
const RECHARGE_AMOUNTS: readonly RechargeAmount[] = ['1', '3'];

export const spendCommand: Command = {
  summary: `credits spent per day or hour and category, the last 7 days at most (${price('spendSummary')})`,
  usage: priced('coinop spend [--days 1-7] [--by day|hour]', price('spendSummary'), 'default: 7 days, per day'),
  async run(args) {
    const call = invocation(args, { days: { type: 'string' }, by: { type: 'string' } });
    if (call.positionals.length > 0) throw new UsageError('spend takes no arguments');
    const days = integer(call.values.days, 'days');
    const by = call.values.by;
    if (by !== undefined && !PERIODS.includes(by as Period))
      throw new UsageError(`--by is one of ${PERIODS.join(', ')}`);
    const query: SpendQuery = {
      ...(days === undefined ? {} : { days }),
      ...(by === undefined ? {} : { by: by as Period }),
    };
    const result = await call.client().spend(query);
    const { series } = result.data;
    call.out.result(result.data, result, () =>
      series.length === 0
        ? '(no spending)'
        : table(
            ['START', 'CATEGORY', 'CREDITS', 'CALLS'],
            series.map((period) => [when(period.start), period.endpoint, period.credits, period.calls]),
          ),
    );
  },
};

export const rechargeCommand: Command = {
  summary: `a payment link for 1 or 3 million credits (${price('rechargeLink')})`,
  usage: priced('coinop recharge <1|3>', price('rechargeLink'), 'millions of credits; prints the payment URL'),
  async run(args) {
    const call = invocation(args, {});
    const amount = required(call.positionals, 0, '1|3');
    if (!RECHARGE_AMOUNTS.includes(amount as RechargeAmount))
      throw new UsageError('<amount> is 1 or 3 (millions of credits)');
    call.only('recharge', 1);
    const result = await call.client().rechargeLink(amount as RechargeAmount);
    call.out.result(result.data, result, () => result.data);
  },
};
