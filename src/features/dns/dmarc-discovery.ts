import { getDomain } from 'tldts';
import { dmarcFromTexts } from './dmarc.js';
import type { DmarcCheck } from './dmarc.js';
import type { TxtFetch } from './spf-check.js';

/** Where the DMARC policy of a domain came from, when it is its organizational domain's. */
export interface DiscoveredDmarc extends DmarcCheck {
  /** The organizational domain whose record applies (RFC 7489 6.6.3); absent when the domain has its own. */
  readonly organizationalDomain?: string;
}

/**
 * RFC 7489 6.6.3 policy discovery: the record at `_dmarc.<domain>`; when there is none, the one at
 * `_dmarc.<organizational domain>`, whose `sp` (else `p`) then governs the subdomain. The organizational
 * domain comes from the Public Suffix List, private section included, so a customer's name under a
 * hosting provider (`you.github.io`) never inherits the provider's policy.
 */
export async function discoverDmarc(domain: string, fetchTxt: TxtFetch): Promise<DiscoveredDmarc> {
  const own = await dmarcAt(domain, fetchTxt);
  if (own.present || own.error !== undefined) return own;
  const organizational = getDomain(domain, { allowPrivateDomains: true });
  if (organizational === null || organizational === domain.toLowerCase().replace(/\.$/, '')) return own;
  const inherited = await dmarcAt(organizational, fetchTxt);
  if (!inherited.present) return own;
  return { ...inherited, policy: inherited.subdomainPolicy ?? inherited.policy, organizationalDomain: organizational };
}

async function dmarcAt(domain: string, fetchTxt: TxtFetch): Promise<DmarcCheck> {
  const answer = await fetchTxt(`_dmarc.${domain}`);
  if (answer.ok) return dmarcFromTexts(answer.texts);
  return {
    present: false,
    ...(answer.failure === 'NXDOMAIN' ? {} : { error: `TXT lookup failed (${answer.failure})` }),
  };
}
