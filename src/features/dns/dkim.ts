import type { QueryResult } from '../../outbound/dns/wire-client.js';

/** Selectors many senders use; DKIM keys cannot be listed, only guessed. */
export const COMMON_DKIM_SELECTORS: readonly string[] = [
  'default',
  'dkim',
  'mail',
  'selector1',
  'selector2',
  'google',
  'k1',
  'k2',
  's1',
  's2',
  'smtp',
  'key1',
  'email',
];

/** Selectors a provider (as named by mx-provider.ts) is known to publish. */
export const PROVIDER_DKIM_SELECTORS: Readonly<Record<string, readonly string[]>> = {
  'Google Workspace': ['google'],
  'Microsoft 365': ['selector1', 'selector2'],
  'Zoho Mail': ['zoho', 'zmail'],
  'Proton Mail': ['protonmail', 'protonmail2', 'protonmail3'],
  Fastmail: ['fm1', 'fm2', 'fm3'],
  'iCloud Mail': ['sig1'],
  Mailgun: ['mx', 'k1', 'krs', 'pic'],
  SendGrid: ['s1', 's2', 'smtpapi'],
  Mimecast: ['mimecast20190104', 'mimecast20230622'],
  'Yandex Mail': ['mail'],
  'Yahoo Mail': ['s1024', 's2048'],
  'Amazon SES': ['amazonses'],
};

export function dkimSelectors(provider: string | null): string[] {
  return [
    ...new Set([...COMMON_DKIM_SELECTORS, ...(provider === null ? [] : (PROVIDER_DKIM_SELECTORS[provider] ?? []))]),
  ];
}

/**
 * A DKIM key record: a non-empty `p=` tag (an empty one means the key was revoked). Whether a key
 * exists is all enrichment asks; mailauth's DKIM code verifies signatures of a message.
 */
export function isDkimKey(text: string): boolean {
  return /(?:^|;)\s*p\s*=\s*[A-Za-z0-9+/]/.test(text);
}

export interface DkimCheck {
  readonly found: boolean;
  readonly selectors: string[];
  readonly checked: number;
}

/** Probes `<selector>._domainkey.<domain>` TXT for every selector (CNAMEs to a provider are followed). */
export async function probeDkim(
  domain: string,
  selectors: readonly string[],
  queryTxt: (name: string) => Promise<QueryResult>,
): Promise<DkimCheck> {
  const answers = await Promise.all(selectors.map((selector) => queryTxt(`${selector}._domainkey.${domain}`)));
  const found = selectors.filter((_, index) => {
    const answer = answers[index] as QueryResult;
    return answer.ok && answer.records.some((record) => record.type === 'TXT' && isDkimKey(record.entries.join('')));
  });
  return { found: found.length > 0, selectors: found, checked: selectors.length };
}
