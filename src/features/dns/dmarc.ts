/**
 * DMARC records (RFC 7489 6.3), parsed without I/O. Our own rather than mailauth's: its parser is an
 * internal file, and its policy discovery is the DMARCbis DNS tree walk (up to eight queries, and a
 * `_dmarc.github.io` record would govern `you.github.io`), not the Public Suffix List of dmarc-discovery.ts.
 */
export type DmarcPolicy = 'none' | 'quarantine' | 'reject';
const POLICIES: readonly string[] = ['none', 'quarantine', 'reject'];

export interface DmarcRecord {
  readonly policy: DmarcPolicy;
  readonly subdomainPolicy?: DmarcPolicy;
  readonly pct?: number;
  readonly rua?: string;
  readonly ruf?: string;
}

export type DmarcParse =
  { readonly ok: true; readonly record: DmarcRecord } | { readonly ok: false; readonly error: string };

export function isDmarcRecord(text: string): boolean {
  return /^v\s*=\s*DMARC1\s*(;|$)/i.test(text.trim());
}

/** Tags are `name=value` separated by `;`; `v=DMARC1` first, then a valid `p`. */
export function parseDmarc(text: string): DmarcParse {
  const tags = text
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const pairs = new Map<string, string>();
  for (const [index, tag] of tags.entries()) {
    const eq = tag.indexOf('=');
    if (eq <= 0) return { ok: false, error: `malformed tag "${tag}"` };
    const name = tag.slice(0, eq).trim().toLowerCase();
    const value = tag.slice(eq + 1).trim();
    if (index === 0 && (name !== 'v' || value !== 'DMARC1'))
      return { ok: false, error: 'does not start with v=DMARC1' };
    if (!pairs.has(name)) pairs.set(name, value);
  }
  const policy = pairs.get('p')?.toLowerCase();
  if (policy === undefined) return { ok: false, error: 'has no p= policy' };
  if (!POLICIES.includes(policy)) return { ok: false, error: `has an unknown policy p=${policy}` };
  const sp = pairs.get('sp')?.toLowerCase();
  const pctText = pairs.get('pct');
  const pct =
    pctText !== undefined && /^\d{1,3}$/.test(pctText) && Number(pctText) <= 100 ? Number(pctText) : undefined;
  const rua = pairs.get('rua');
  const ruf = pairs.get('ruf');
  return {
    ok: true,
    record: {
      policy: policy as DmarcPolicy,
      ...(sp !== undefined && POLICIES.includes(sp) ? { subdomainPolicy: sp as DmarcPolicy } : {}),
      ...(pct === undefined ? {} : { pct }),
      ...(rua === undefined ? {} : { rua }),
      ...(ruf === undefined ? {} : { ruf }),
    },
  };
}

export interface DmarcCheck {
  readonly present: boolean;
  readonly record?: string;
  readonly policy?: DmarcPolicy;
  readonly subdomainPolicy?: DmarcPolicy;
  readonly pct?: number;
  readonly rua?: string;
  readonly error?: string;
}

/** The DMARC state from the TXT strings at `_dmarc.<domain>`: present only when exactly one record parses. */
export function dmarcFromTexts(texts: readonly string[]): DmarcCheck {
  const records = texts.filter(isDmarcRecord);
  if (records.length === 0) return { present: false };
  if (records.length > 1) return { present: false, error: 'more than one DMARC record' };
  const record = records[0] as string;
  const parsed = parseDmarc(record);
  if (!parsed.ok) return { present: false, record, error: `DMARC record ${parsed.error}` };
  return { present: true, record, ...parsed.record };
}
