import { Coinop, tokenHash } from '../client.js';
import { CoinopError, ConnectionFailed, InsufficientCredits, InvalidInput, ServerError } from '../errors.js';
import type { Settings } from '../settings.js';
import { CommandFailed, UsageError } from './exit-codes.js';
import { chargeNote } from './output.js';

/**
 * What `coinop <word>` prints on stderr when it fails: what failed, what it cost (every error that carries a charge
 * shows it, as a success does), and what to do next where the CLI can tell.
 */
export async function failureReport(
  word: string,
  usage: string,
  error: unknown,
  settings: Settings | undefined,
): Promise<string> {
  const prefix = `coinop ${word}:`;
  if (error instanceof UsageError) return `${prefix} ${error.message}\n\n${usage}`;
  if (error instanceof CommandFailed) return `${prefix} ${error.message}`;
  if (error instanceof InvalidInput) return `${prefix} ${error.body}\n(not sent: nothing charged)`;
  if (error instanceof ConnectionFailed) return `${prefix} ${error.message}\n${unreachableHint(settings)}`;
  if (!(error instanceof CoinopError)) return `${prefix} ${error instanceof Error ? error.message : String(error)}`;
  const lines = [`${prefix} ${error.name}: ${error.message}`, chargeNote(error)];
  if (error instanceof InsufficientCredits && settings !== undefined) lines.push(await addCreditsHint(settings));
  return lines.filter((line) => line !== undefined).join('\n');
}

function unreachableHint(settings: Settings | undefined): string {
  const url = settings?.url ?? 'the service';
  return [
    `Nothing answers at ${url}. Start the service there (npm start in the coinop folder serves http://localhost:8080),`,
    'or point coinop at yours: --url <base URL>, or COINOP_URL=<base URL> (coinop token new --save keeps the URL for later commands).',
  ].join('\n');
}

/** How to add credits on this instance: its payment link when it sells credits through Stripe, else its operator's credit. */
async function addCreditsHint(settings: Settings): Promise<string> {
  const wallet = settings.token === undefined ? '<token|hash>' : tokenHash(settings.token);
  const operator = `ask the instance's operator to add credits: ADMIN_TOKEN=… coinop admin credit ${wallet} <amount>`;
  try {
    // Free, and answered even at a balance of 0.
    const link = await new Coinop({ baseUrl: settings.url, token: settings.token }).rechargeLink('1');
    return `To add credits: buy a million at ${link.data} (coinop recharge 3 for three million), or ${operator}`;
  } catch (error) {
    const sellsNone = error instanceof ServerError && error.status === 501;
    return sellsNone
      ? `This instance sells no credits (no Stripe): ${operator}`
      : `To add credits: coinop recharge 1 prints a payment link, or ${operator}`;
  }
}
