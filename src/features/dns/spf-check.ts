import type { QueryFailure } from '../../outbound/dns/dns-types.js';
import { allQualifier, hasMacro, isSpfRecord, LOOKUP_MECHANISMS, MAX_DNS_LOOKUPS, parseSpf } from './spf.js';
import type { SpfRecord } from './spf.js';

/** The TXT strings at a name (one string per record), or why there are none. */
export type TxtFetch = (
  name: string,
) => Promise<
  { readonly ok: true; readonly texts: readonly string[] } | { readonly ok: false; readonly failure: QueryFailure }
>;

export interface SpfCheck {
  /** At least one `v=spf1` record at the domain. */
  readonly present: boolean;
  readonly record?: string;
  /** Exactly one record, parsable through every include/redirect, within 10 DNS lookups, no loop. */
  readonly valid: boolean;
  /** The record (or the one it redirects to) ends in `-all`. */
  readonly strict: boolean;
  /** DNS-querying terms counted (include, a, mx, ptr, exists, redirect), through the whole tree. */
  readonly lookups: number;
  readonly error?: string;
}

class SpfError extends Error {}

type Fetched =
  | { readonly kind: 'none' }
  | { readonly kind: 'one'; readonly text: string }
  | { readonly kind: 'many' }
  | { readonly kind: 'failed'; readonly failure: QueryFailure };

async function fetchSpf(fetch: TxtFetch, name: string): Promise<Fetched> {
  const answer = await fetch(name);
  if (!answer.ok) return answer.failure === 'NXDOMAIN' ? { kind: 'none' } : { kind: 'failed', failure: answer.failure };
  const records = answer.texts.filter(isSpfRecord);
  if (records.length === 0) return { kind: 'none' };
  return records.length === 1 ? { kind: 'one', text: records[0] as string } : { kind: 'many' };
}

const canonical = (name: string): string => name.toLowerCase().replace(/\.$/, '');

/**
 * Walks the record tree: every include and redirect target is fetched, parsed and walked in turn;
 * a target already on the current path is a loop; the 11th lookup is an error (RFC 7208 4.6.4).
 * Returns whether the policy that finally applies ends in `-all`.
 */
async function walk(
  fetch: TxtFetch,
  record: SpfRecord,
  path: readonly string[],
  count: { lookups: number },
): Promise<boolean> {
  const spend = () => {
    count.lookups++;
    if (count.lookups > MAX_DNS_LOOKUPS) throw new SpfError(`more than ${MAX_DNS_LOOKUPS} DNS lookups`);
  };
  const follow = async (term: string, target: string): Promise<SpfRecord | undefined> => {
    // A macro needs the sender's address to expand: counted, not followed.
    if (hasMacro(target)) return undefined;
    const name = canonical(target);
    if (path.includes(name)) throw new SpfError(`loop: ${term}:${name} is already being evaluated`);
    const fetched = await fetchSpf(fetch, name);
    if (fetched.kind === 'none') throw new SpfError(`${term}:${name} has no SPF record`);
    if (fetched.kind === 'many') throw new SpfError(`${term}:${name} has more than one SPF record`);
    if (fetched.kind === 'failed') throw new SpfError(`${term}:${name} could not be resolved (${fetched.failure})`);
    const parsed = parseSpf(fetched.text);
    if (!parsed.ok) throw new SpfError(`${term}:${name} ${parsed.error}`);
    return parsed.record;
  };

  for (const mechanism of record.mechanisms) {
    if (!LOOKUP_MECHANISMS.has(mechanism.name)) continue;
    spend();
    if (mechanism.name !== 'include') continue;
    const included = await follow('include', mechanism.value as string);
    if (included !== undefined) await walk(fetch, included, [...path, canonical(mechanism.value as string)], count);
  }
  const all = allQualifier(record);
  // redirect= applies only when the record has no `all` (RFC 7208 6.1).
  if (all === undefined && record.redirect !== undefined) {
    spend();
    const target = await follow('redirect', record.redirect);
    if (target === undefined) return false;
    return walk(fetch, target, [...path, canonical(record.redirect)], count);
  }
  return all === '-';
}

/** SPF of a domain: presence, validity (with the 10-lookup limit and loop detection) and strictness. */
export async function checkSpf(domain: string, fetch: TxtFetch): Promise<SpfCheck> {
  const answer = await fetch(domain);
  const records = answer.ok ? answer.texts.filter(isSpfRecord) : [];
  if (records.length === 0) {
    const error = answer.ok || answer.failure === 'NXDOMAIN' ? undefined : `TXT lookup failed (${answer.failure})`;
    return { present: false, valid: false, strict: false, lookups: 0, ...(error === undefined ? {} : { error }) };
  }
  if (records.length > 1)
    return { present: true, valid: false, strict: false, lookups: 0, error: 'more than one SPF record' };
  const record = records[0] as string;
  const parsed = parseSpf(record);
  if (!parsed.ok) return { present: true, record, valid: false, strict: false, lookups: 0, error: parsed.error };
  const count = { lookups: 0 };
  const ownStrict = allQualifier(parsed.record) === '-';
  try {
    const strict = await walk(fetch, parsed.record, [canonical(domain)], count);
    return { present: true, record, valid: true, strict, lookups: count.lookups };
  } catch (error) {
    if (!(error instanceof SpfError)) throw error;
    return { present: true, record, valid: false, strict: ownStrict, lookups: count.lookups, error: error.message };
  }
}
