import { describe, expect, it } from 'vitest';
import { isDkimKey } from '../../../src/features/dns/dkim.js';
import { dmarcFromTexts, isDmarcRecord, parseDmarc } from '../../../src/features/dns/dmarc.js';
import { mxProvider } from '../../../src/features/dns/mx-provider.js';
import { parseTarget } from '../../../src/features/dns/names.js';
import { reverseNameRange } from '../../../src/features/dns/public-answers.js';
import { isSpfRecord, parseSpf } from '../../../src/features/dns/spf.js';
import { subjectAltNames } from '../../../src/outbound/tls-probe.js';
import { parseServerSpec } from '../../../src/lib/server-spec.js';

/**
 * Every parser that reads DNS answers (TXT: SPF, DMARC, DKIM; names; MX hosts; certificate names)
 * or request input, fed 1 MB shaped to make a backtracking regular expression go quadratic or worse.
 * A linear parser needs milliseconds; a quadratic one on 1 MB needs minutes.
 */
const MB = 1_000_000;
const BOUND_MS = 1500;

const cases: ReadonlyArray<readonly [string, () => unknown]> = [
  ['DKIM: a tag start followed by whitespace only', () => isDkimKey(`;${' '.repeat(MB)}`)],
  ['DKIM: p= followed by whitespace, no key', () => isDkimKey(`; p =${' \t'.repeat(MB / 2)}!`)],
  ['DKIM: many almost-tags', () => isDkimKey('; p ='.repeat(MB / 5))],
  ['DMARC: v and whitespace, no version', () => isDmarcRecord(`v${' '.repeat(MB)}x`)],
  ['DMARC: version then whitespace, no separator', () => isDmarcRecord(`v=DMARC1${' '.repeat(MB)}x`)],
  ['DMARC: empty tags', () => parseDmarc(`v=DMARC1${';'.repeat(MB)}`)],
  ['DMARC: repeated tags', () => parseDmarc(`v=DMARC1;${'p=r;'.repeat(MB / 4)}`)],
  ['DMARC: long report address', () => dmarcFromTexts([`v=DMARC1; p=reject; rua=${'a'.repeat(MB)}`])],
  ['SPF: version then whitespace', () => isSpfRecord(`v=spf1${' '.repeat(MB)}x`)],
  ['SPF: a term that looks like a modifier name without =', () => parseSpf(`v=spf1 ${'a'.repeat(MB)}`)],
  ['SPF: a modifier of equal signs', () => parseSpf(`v=spf1 x${'='.repeat(MB)}`)],
  ['SPF: an unclosed macro', () => parseSpf(`v=spf1 include:%{s${'1'.repeat(MB)}`)],
  ['SPF: many unclosed macros', () => parseSpf(`v=spf1 include:${'%{s1'.repeat(MB / 4)}`)],
  ['SPF: macro delimiters without a close', () => parseSpf(`v=spf1 include:%{s1r${'.'.repeat(MB)}`)],
  ['SPF: a long domain with a bad last character', () => parseSpf(`v=spf1 include:${'a'.repeat(MB)}é`)],
  ['SPF: escaped percents with a stray one', () => parseSpf(`v=spf1 include:${'%%'.repeat(MB / 2)}%`)],
  ['SPF: ip4 of slashes', () => parseSpf(`v=spf1 ip4:${'/'.repeat(MB)}`)],
  ['SPF: ip6 of colons', () => parseSpf(`v=spf1 ip6:${':'.repeat(MB)}g`)],
  ['SPF: a with repeated cidr', () => parseSpf(`v=spf1 a:x${'/1'.repeat(MB / 2)}`)],
  ['SPF: half a million terms', () => parseSpf(`v=spf1${' a'.repeat(MB / 2)}`)],
  ['SPF: mixed whitespace', () => parseSpf(`v=spf1${' \t'.repeat(MB / 2)}x`)],
  ['MX: a host of dots', () => mxProvider([{ type: 'MX', exchange: '.'.repeat(MB), priority: 1, ttl: 1 }])],
  [
    'MX: a long host near a provider suffix',
    () => mxProvider([{ type: 'MX', exchange: `${'a.'.repeat(MB / 2)}google.comx`, priority: 1, ttl: 1 }]),
  ],
  ['target: many labels', () => parseTarget('a.'.repeat(MB / 2))],
  ['target: a long hex last label', () => parseTarget(`a.0x${'f'.repeat(MB)}g`)],
  ['target: a long numeric last label', () => parseTarget(`a.${'1'.repeat(MB)}x`)],
  ['target: a label of hyphens', () => parseTarget(`${'a'.repeat(60)}${'-'.repeat(MB)}`)],
  ['reverse name: many numeric labels', () => reverseNameRange(`${'1.'.repeat(MB / 2)}in-addr.arpa`)],
  ['certificate names: empty entries', () => subjectAltNames(', '.repeat(MB / 2))],
  ['certificate names: whitespace after a comma', () => subjectAltNames(`,${' '.repeat(MB)}`)],
  ['server: a long host and an empty port', () => parseServerSpec(`${'a'.repeat(MB)}:`)],
  ['server: an unclosed bracket', () => parseServerSpec(`[${'a'.repeat(MB)}`)],
  ['server: labels of hyphens', () => parseServerSpec('a-'.repeat(MB / 2))],
];

describe('parsers of DNS answers and request input on 1 MB of adversarial input', () => {
  for (const [what, run] of cases) {
    it(`${what}: within ${BOUND_MS} ms`, () => {
      const started = performance.now();
      run();
      expect(performance.now() - started).toBeLessThan(BOUND_MS);
    });
  }
});
