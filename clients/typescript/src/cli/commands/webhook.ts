import type { Command } from '../command.js';
import { integer, invocation, required } from '../command.js';
import { CommandFailed, EXIT, UsageError } from '../exit-codes.js';
import { fields, table, when } from '../output.js';
import { price, priced, prices } from '../price.js';
import { InvalidInput } from '../../errors.js';
import { repeatedHeadersProblem } from '../../input-rules.js';
import type { Webhook, WebhookCreate } from '../../types.js';

function mode(webhook: Webhook): string {
  return 'schedule' in webhook && webhook.schedule !== undefined
    ? `schedule ${webhook.schedule.cron} (${webhook.schedule.timezone})`
    : `mail ${webhook.email ?? ''}`;
}

export const webhookCommand: Command = {
  summary: `webhooks: ls, get, create, test, rm, deliveries (${prices({ ls: 'webhookList', get: 'webhookGet', create: 'webhookCreate', test: 'webhookTest', rm: 'webhookDelete', deliveries: 'webhookDeliveries' })})`,
  usage: [
    priced('coinop webhook ls', price('webhookList')),
    priced('coinop webhook get <webhookId>', price('webhookGet')),
    priced(
      'coinop webhook create <url> [--id webhookId] [--cron "m h dom mon dow" --timezone Zone] [--format slack|…] [--header name=value]…',
      price('webhookCreate'),
    ),
    priced('coinop webhook create --body \'{"url": …}\'', price('webhookCreate'), 'the whole JSON configuration'),
    priced('coinop webhook test <webhookId>', price('webhookTest')),
    priced('coinop webhook rm <webhookId>', price('webhookDelete')),
    priced(
      'coinop webhook deliveries <webhookId> [-n count] [--status pending|success|failure]',
      price('webhookDeliveries'),
    ),
  ].join('\n'),
  async run(args) {
    const call = invocation(args, {
      id: { type: 'string' },
      cron: { type: 'string' },
      timezone: { type: 'string' },
      format: { type: 'string' },
      header: { type: 'string', multiple: true },
      body: { type: 'string' },
      n: { type: 'string', short: 'n' },
      status: { type: 'string' },
    });
    const [sub] = call.positionals;
    const id = () => required(call.positionals, 1, 'webhookId');
    switch (sub) {
      case 'ls':
      case 'list': {
        call.only(`webhook ${sub}`, 1);
        const result = await call.client().webhookList();
        const { webhooks } = result.data;
        call.out.result(result.data, result, () =>
          webhooks.length === 0
            ? '(no webhooks)'
            : table(
                ['ID', 'URL', 'MODE'],
                webhooks.map((webhook) => [webhook.webhookId, webhook.webhook, mode(webhook)]),
              ),
        );
        return;
      }
      case 'get': {
        call.only('webhook get', 2);
        const result = await call.client().webhookGet(id());
        call.out.result(result.data, result, () => fields(result.data));
        return;
      }
      case 'create': {
        // --body is the whole configuration: a <url> or a flag beside it would be left out of what is sent.
        if (call.values.body === undefined)
          call.only('webhook create', 2, ['id', 'cron', 'timezone', 'format', 'header']);
        else call.only('webhook create --body', 1, ['body']);
        const result = await call.client().webhookCreate(createBody(call.positionals[1], call.values));
        call.out.result(result.data, result, () => fields(result.data));
        return;
      }
      case 'test': {
        call.only('webhook test', 2);
        const result = await call.client().webhookTest(id());
        call.out.result(
          result.data,
          result,
          () => `${result.data.success ? 'delivered' : 'failed'}: ${result.data.message}`,
        );
        // The service answers 200 either way; scripts see a receiver that did not take it in the exit status.
        if (!result.data.success)
          throw new CommandFailed(
            `the receiver did not take the test delivery: it was still charged (${result.cost} credit${result.cost === 1 ? '' : 's'})`,
            EXIT.serverOrNetwork,
          );
        return;
      }
      case 'rm':
      case 'delete': {
        call.only(`webhook ${sub}`, 2);
        const result = await call.client().webhookDelete(id());
        call.out.result(result.data, result, () => result.data);
        return;
      }
      case 'deliveries': {
        call.only('webhook deliveries', 2, ['n', 'status']);
        const n = integer(call.values.n, 'n');
        const status = call.values.status;
        if (status !== undefined && status !== 'pending' && status !== 'success' && status !== 'failure')
          throw new UsageError('--status is pending, success or failure');
        const result = await call
          .client()
          .webhookDeliveries(id(), { ...(n === undefined ? {} : { n }), ...(status === undefined ? {} : { status }) });
        const { deliveries } = result.data;
        call.out.result(result.data, result, () =>
          deliveries.length === 0
            ? '(no deliveries)'
            : table(
                ['ID', 'TRIGGER', 'CREATED', 'STATUS', 'ATTEMPTS'],
                deliveries.map((delivery) => [
                  delivery.id,
                  delivery.trigger,
                  when(delivery.createdAt),
                  delivery.status,
                  delivery.attempts,
                ]),
              ),
        );
        return;
      }
      default:
        throw new UsageError(sub === undefined ? 'missing subcommand' : `unknown subcommand: ${sub}`);
    }
  },
};

interface CreateFlags {
  id?: string | undefined;
  cron?: string | undefined;
  timezone?: string | undefined;
  format?: string | undefined;
  header?: string[] | undefined;
  body?: string | undefined;
}

function createBody(url: string | undefined, flags: CreateFlags): WebhookCreate {
  if (flags.body !== undefined) {
    try {
      return JSON.parse(flags.body) as WebhookCreate;
    } catch {
      throw new UsageError('--body must be JSON');
    }
  }
  if (url === undefined) throw new UsageError('missing <url>');
  if ((flags.cron === undefined) !== (flags.timezone === undefined))
    throw new UsageError('--cron and --timezone go together');
  const headers: Record<string, string> = {};
  const names: string[] = [];
  for (const header of flags.header ?? []) {
    const at = header.indexOf('=');
    if (at <= 0) throw new UsageError('--header is name=value');
    names.push(header.slice(0, at));
    headers[header.slice(0, at)] = header.slice(at + 1);
  }
  // The object keeps the last of two same-named headers; the service refuses a name twice in any case, so this does.
  const repeated = repeatedHeadersProblem(names);
  if (repeated !== null) throw new InvalidInput(repeated);
  // The document types the mode-dependent fields; the service checks the combination (400 with its reason).
  const body: Record<string, unknown> = { url };
  if (flags.id !== undefined) body.webhookId = flags.id;
  if (Object.keys(headers).length > 0) body.headers = headers;
  if (flags.format !== undefined) body.format = flags.format;
  if (flags.cron !== undefined) body.schedule = { cron: flags.cron, timezone: flags.timezone };
  return body as WebhookCreate;
}
