import type { DmarcPolicy } from './dmarc.js';

export interface EmailPosture {
  readonly spf: {
    readonly present: boolean;
    readonly valid: boolean;
    readonly strict: boolean;
    readonly error?: string;
  };
  readonly dmarc: { readonly present: boolean; readonly policy?: DmarcPolicy; readonly error?: string };
  readonly dkim: { readonly found: boolean };
}

export interface EmailAssessment {
  readonly score: number;
  readonly warnings: string[];
  readonly recommendations: string[];
}

/**
 * docs/contract.md#dns-lookup: SPF present 20 + valid 10 + strict 10; DMARC present 20 + quarantine 10 or
 * reject 20; DKIM found 20. Each missing part adds one warning and one recommendation (a missing
 * record stands for its own sub-parts too).
 */
export function assessEmailSecurity(posture: EmailPosture, domain: string): EmailAssessment {
  let score = 0;
  const warnings: string[] = [];
  const recommendations: string[] = [];
  const miss = (warning: string, recommendation: string) => {
    warnings.push(warning);
    recommendations.push(recommendation);
  };

  const { spf, dmarc, dkim } = posture;
  if (!spf.present) {
    miss('No SPF record found', 'Publish an SPF record listing the servers that send your mail, ending in -all');
  } else {
    score += 20;
    if (spf.valid) score += 10;
    else
      miss(
        `SPF record is invalid${spf.error === undefined ? '' : `: ${spf.error}`}`,
        'Fix the SPF record so it has one v=spf1 record within 10 DNS lookups',
      );
    if (spf.strict) score += 10;
    else miss('SPF record does not end in -all', 'End the SPF record with -all so unlisted senders are rejected');
  }

  if (!dmarc.present) {
    miss(
      dmarc.error === undefined ? 'No DMARC record found' : `DMARC record is invalid: ${dmarc.error}`,
      `Publish a DMARC record at _dmarc.${domain}, starting with p=none and a rua= report address`,
    );
  } else {
    score += 20;
    if (dmarc.policy === 'reject') score += 20;
    else if (dmarc.policy === 'quarantine') {
      score += 10;
      miss(
        'DMARC policy is quarantine, not reject',
        'Move the DMARC policy to reject once reports show your own mail passes',
      );
    } else {
      miss(
        'DMARC policy is none: spoofed mail is still delivered',
        'Raise the DMARC policy to quarantine, then to reject',
      );
    }
  }

  if (dkim.found) score += 20;
  else miss('No DKIM records detected', 'Configure DKIM signing for email authentication');

  return { score, warnings, recommendations };
}
