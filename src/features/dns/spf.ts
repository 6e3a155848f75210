import ipaddr from 'ipaddr.js';

/**
 * SPF record syntax (RFC 7208 section 4.6, 5 and 6), parsed without any I/O.
 * Evaluation against DNS (includes, redirects, the 10-lookup limit) lives in spf-check.ts.
 *
 * Our own rather than mailauth's: mailauth answers whether one message from one IP address passes
 * (its record parsers are internal files, not its API), while enrichment describes a domain's record
 * for any sender; and it would add 17 MB, with second copies of nodemailer, undici and tldts.
 */
export type SpfQualifier = '+' | '-' | '~' | '?';
export type SpfMechanismName = 'all' | 'include' | 'a' | 'mx' | 'ptr' | 'ip4' | 'ip6' | 'exists';

export interface SpfMechanism {
  readonly qualifier: SpfQualifier;
  readonly name: SpfMechanismName;
  /** Domain-spec of include/exists/a/mx/ptr, or the address of ip4/ip6. */
  readonly value?: string;
}

export interface SpfRecord {
  readonly mechanisms: readonly SpfMechanism[];
  readonly redirect?: string;
  readonly exp?: string;
}

export type SpfParse =
  { readonly ok: true; readonly record: SpfRecord } | { readonly ok: false; readonly error: string };

/** Mechanisms and modifiers that cost a DNS lookup (RFC 7208 4.6.4). */
export const LOOKUP_MECHANISMS: ReadonlySet<SpfMechanismName> = new Set(['include', 'a', 'mx', 'ptr', 'exists']);
export const MAX_DNS_LOOKUPS = 10;

const VERSION = /^v=spf1$/i;
const MODIFIER = /^([a-z][a-z0-9_.-]*)=(.*)$/i;
const MECHANISM = /^([+\-~?]?)([a-z0-9]+)(.*)$/i;
/** A domain-spec: macro-strings and a domain, loosely (RFC 7208 7.1); spaces are impossible here. */
const DOMAIN_SPEC = /^(?:[\x21-\x24\x26-\x7e]|%\{[slodiphcrtv]\d*r?[.\-+,/_=]*\}|%%|%_|%-)+$/i;
const DUAL_CIDR = /^(?:\/(\d{1,2}))?(?:\/\/(\d{1,3}))?$/;

export function isSpfRecord(text: string): boolean {
  return /^v=spf1(\s|$)/i.test(text.trim());
}

export function hasMacro(domainSpec: string): boolean {
  return domainSpec.includes('%{');
}

function validCidr(text: string, v4: number, v6: number): boolean {
  const match = DUAL_CIDR.exec(text);
  if (match === null) return false;
  return (match[1] === undefined || Number(match[1]) <= v4) && (match[2] === undefined || Number(match[2]) <= v6);
}

/** The argument of ip4/ip6: an address (checked by ipaddr.js, as everywhere else) and an optional prefix length. */
function validNetwork(text: string, kind: 'ipv4' | 'ipv6'): boolean {
  const slash = text.indexOf('/');
  const address = slash === -1 ? text : text.slice(0, slash);
  const prefix = slash === -1 ? undefined : text.slice(slash + 1);
  if (!(kind === 'ipv4' ? ipaddr.IPv4.isValidFourPartDecimal(address) : ipaddr.IPv6.isValid(address))) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (kind === 'ipv4' ? 32 : 128));
}

function parseMechanism(term: string): SpfMechanism | string {
  const match = MECHANISM.exec(term);
  if (match === null) return `unknown term "${term}"`;
  const qualifier = (match[1] || '+') as SpfQualifier;
  const name = (match[2] as string).toLowerCase();
  const rest = match[3] as string;
  const argument = rest.startsWith(':') ? rest.slice(1) : undefined;
  const suffix = rest.startsWith(':') ? '' : rest;
  switch (name) {
    case 'all':
      return rest === '' ? { qualifier, name } : `invalid term "${term}"`;
    case 'include':
    case 'exists':
      if (argument === undefined || argument === '' || !DOMAIN_SPEC.test(argument))
        return `"${name}" needs a domain: "${term}"`;
      return { qualifier, name, value: argument };
    case 'a':
    case 'mx': {
      if (argument === undefined) return validCidr(suffix, 32, 128) ? { qualifier, name } : `invalid term "${term}"`;
      const slash = argument.indexOf('/');
      const domain = slash === -1 ? argument : argument.slice(0, slash);
      const cidr = slash === -1 ? '' : argument.slice(slash);
      if (domain === '' || !DOMAIN_SPEC.test(domain) || !validCidr(cidr, 32, 128)) return `invalid term "${term}"`;
      return { qualifier, name, value: domain };
    }
    case 'ptr':
      if (suffix !== '') return `invalid term "${term}"`;
      if (argument !== undefined && (argument === '' || !DOMAIN_SPEC.test(argument))) return `invalid term "${term}"`;
      return argument === undefined ? { qualifier, name } : { qualifier, name, value: argument };
    case 'ip4':
      return argument !== undefined && validNetwork(argument, 'ipv4')
        ? { qualifier, name, value: argument }
        : `invalid address in "${term}"`;
    case 'ip6':
      return argument !== undefined && validNetwork(argument, 'ipv6')
        ? { qualifier, name, value: argument }
        : `invalid address in "${term}"`;
    default:
      return `unknown mechanism "${name}"`;
  }
}

/** Parses one `v=spf1 …` record; unknown modifiers are ignored, unknown mechanisms are errors. */
export function parseSpf(text: string): SpfParse {
  const terms = text.trim().split(/\s+/);
  if (!VERSION.test(terms[0] ?? '')) return { ok: false, error: 'does not start with v=spf1' };
  const mechanisms: SpfMechanism[] = [];
  let redirect: string | undefined;
  let exp: string | undefined;
  for (const term of terms.slice(1)) {
    const modifier = MODIFIER.exec(term);
    if (modifier !== null) {
      const name = (modifier[1] as string).toLowerCase();
      const value = modifier[2] as string;
      if (name === 'redirect' || name === 'exp') {
        if ((name === 'redirect' ? redirect : exp) !== undefined)
          return { ok: false, error: `more than one ${name}= modifier` };
        if (value === '' || !DOMAIN_SPEC.test(value)) return { ok: false, error: `${name}= needs a domain` };
        if (name === 'redirect') redirect = value;
        else exp = value;
      }
      continue;
    }
    const mechanism = parseMechanism(term);
    if (typeof mechanism === 'string') return { ok: false, error: mechanism };
    mechanisms.push(mechanism);
  }
  return {
    ok: true,
    record: { mechanisms, ...(redirect === undefined ? {} : { redirect }), ...(exp === undefined ? {} : { exp }) },
  };
}

/** The qualifier of the record's `all`, if it has one. */
export function allQualifier(record: SpfRecord): SpfQualifier | undefined {
  return record.mechanisms.find((mechanism) => mechanism.name === 'all')?.qualifier;
}
