/**
 * An expression that tells the server not to wait for the WAL flush at the commit of the transaction it runs in (and
 * only that one): a statement that evaluates it commits like a `syncLater` write, at no extra round trip.
 */
export const POSTGRES_SYNC_LATER = "set_config('synchronous_commit', 'off', true)";

const texts = new Map<string, string>();

/**
 * `update` (an `UPDATE … SET … WHERE …` of one table, written by the code) evaluating POSTGRES_SYNC_LATER: a one-row
 * FROM joined before its WHERE, so the statement sets its own commit's mode in its own implicit transaction. Made once
 * per text; any other shape is refused, since the expression must be evaluated for the setting to hold.
 */
export function syncLaterUpdate(update: string): string {
  let text = texts.get(update);
  if (text === undefined) {
    const where = update.indexOf('\nWHERE ');
    if (
      !/^\s*UPDATE\s/i.test(update) ||
      where < 0 ||
      where !== update.lastIndexOf('\nWHERE ') ||
      /\sFROM\s/i.test(update.slice(0, where))
    ) {
      throw new Error('syncLaterUpdate takes an UPDATE of one table with one line-leading WHERE and no FROM');
    }
    text = `${update.slice(0, where)}\nFROM (SELECT ${POSTGRES_SYNC_LATER}) AS sync_later${update.slice(where)}`;
    texts.set(update, text);
  }
  return text;
}
