import { callCost } from '../input-rules.js';

/**
 * What a successful call costs, as help lines say it (`1 credit`, `55 credits`, `free`): read from the service's own
 * `x-cost` (generated/service-rules.js, the same figure the SDK's 402 message gives), never written down twice.
 */
export function price(operationId: string, request: { readonly aiSummary?: string } = {}): string {
  const cost = callCost(operationId, request);
  if (cost === undefined) throw new Error(`the service document gives no x-cost for ${operationId}`);
  return cost === 0 ? 'free' : `${cost} ${cost === 1 ? 'credit' : 'credits'}`;
}

/**
 * The prices of a word's subcommands for `coinop help`: the price most of them share, "each", then the others by
 * name (`1 credit each; deliveries free`).
 */
export function prices(operations: Readonly<Record<string, string>>): string {
  const byPrice = new Map<string, string[]>();
  for (const [name, operationId] of Object.entries(operations)) {
    const said = price(operationId);
    byPrice.set(said, [...(byPrice.get(said) ?? []), name]);
  }
  const groups = [...byPrice].sort(([, a], [, b]) => b.length - a.length);
  return groups
    .map(([said, names], index) =>
      index === 0 ? `${said}${names.length > 1 && said !== 'free' ? ' each' : ''}` : `${names.join(', ')} ${said}`,
    )
    .join('; ');
}

/** A usage line with what it costs: `coinop kv get <bucket> <key>   (1 credit)`, after the line's own note if any. */
export function priced(line: string, cost: string, note?: string): string {
  return `${line}   (${note === undefined ? cost : `${cost}; ${note}`})`;
}
