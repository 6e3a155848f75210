import { dkimSelectors, probeDkim } from './dkim.js';
import type { DkimCheck } from './dkim.js';
import type { DmarcPolicy } from './dmarc.js';
import { discoverDmarc } from './dmarc-discovery.js';
import type { DiscoveredDmarc } from './dmarc-discovery.js';
import { assessEmailSecurity } from './email-score.js';
import { mxProvider } from './mx-provider.js';
import { txtValue } from './records.js';
import type { RequestResolver } from './request-resolver.js';
import { checkSpf } from './spf-check.js';
import type { SpfCheck, TxtFetch } from './spf-check.js';

/** The enrichment fields of a `lookupResult` (the names of docs/contract.md#dns-lookup), plus the detail behind them. */
export interface EmailEnrichment {
  readonly mx_provider: string | null;
  readonly spf_valid: boolean;
  readonly spf_strict: boolean;
  readonly dmarc_policy?: DmarcPolicy;
  readonly has_dkim: boolean;
  readonly email_security_score: number;
  readonly warnings: string[];
  readonly recommendations: string[];
  readonly enrichment: {
    readonly mx: { readonly provider: string | null; readonly hosts: string[] };
    readonly spf: SpfCheck;
    readonly dmarc: DiscoveredDmarc;
    readonly dkim: DkimCheck;
  };
}

/** MX provider, SPF, DMARC and DKIM of a domain, each from its own queries (shared with the main lookup). */
export async function enrichDomain(resolver: RequestResolver, domain: string): Promise<EmailEnrichment> {
  const fetchTxt: TxtFetch = async (name) => {
    const answer = await resolver.query(name, 'TXT');
    return answer.ok ? { ok: true, texts: answer.records.flatMap((record) => txtValue(record) ?? []) } : answer;
  };
  const mxAnswer = resolver.query(domain, 'MX');
  const spfCheck = checkSpf(domain, fetchTxt);
  const dmarcCheck = discoverDmarc(domain, fetchTxt);
  const mx = await mxAnswer;
  const mxRecords = mx.ok ? mx.records : [];
  const provider = mxProvider(mxRecords);
  const [spf, dmarc, dkim] = await Promise.all([
    spfCheck,
    dmarcCheck,
    probeDkim(domain, dkimSelectors(provider), (name) => resolver.query(name, 'TXT')),
  ]);
  const assessment = assessEmailSecurity({ spf, dmarc, dkim: { found: dkim.found } }, domain);
  return {
    mx_provider: provider,
    spf_valid: spf.valid,
    spf_strict: spf.strict,
    ...(dmarc.present && dmarc.policy !== undefined ? { dmarc_policy: dmarc.policy } : {}),
    has_dkim: dkim.found,
    email_security_score: assessment.score,
    warnings: assessment.warnings,
    recommendations: assessment.recommendations,
    enrichment: {
      mx: { provider, hosts: mxRecords.flatMap((record) => (record.type === 'MX' ? [record.exchange] : [])) },
      spf,
      dmarc,
      dkim,
    },
  };
}
