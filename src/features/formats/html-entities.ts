/**
 * Decoding of HTML character references for the plain-text rendering of HTML mail.
 * Only the references mail actually uses are named here: all of Latin-1 plus common
 * typography; an unknown name is left as written rather than guessed.
 */

/** Names of U+00A0..U+00FF in code-point order (HTML 4 Latin-1 set). */
const LATIN1 =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr ' +
  'deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest ' +
  'Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ' +
  'ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig ' +
  'agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml ' +
  'eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml';

const OTHERS: Readonly<Record<string, number>> = {
  amp: 0x26,
  lt: 0x3c,
  gt: 0x3e,
  quot: 0x22,
  apos: 0x27,
  ensp: 0x2002,
  emsp: 0x2003,
  thinsp: 0x2009,
  zwnj: 0x200c,
  zwj: 0x200d,
  ndash: 0x2013,
  mdash: 0x2014,
  lsquo: 0x2018,
  rsquo: 0x2019,
  sbquo: 0x201a,
  ldquo: 0x201c,
  rdquo: 0x201d,
  bdquo: 0x201e,
  bull: 0x2022,
  hellip: 0x2026,
  prime: 0x2032,
  lsaquo: 0x2039,
  rsaquo: 0x203a,
  euro: 0x20ac,
  trade: 0x2122,
  larr: 0x2190,
  rarr: 0x2192,
  OElig: 0x152,
  oelig: 0x153,
  Scaron: 0x160,
  scaron: 0x161,
};

const NAMED: ReadonlyMap<string, string> = new Map([
  ...LATIN1.split(' ').map((name, i): [string, string] => [name, String.fromCodePoint(0xa0 + i)]),
  ...Object.entries(OTHERS).map(([name, code]): [string, string] => [name, String.fromCodePoint(code)]),
  // A non-breaking space means nothing to a chat message; a plain one wraps better.
  ['nbsp', ' '],
]);

const REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));/g;

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name !== undefined) return NAMED.get(name) ?? whole;
    return fromCodePoint(dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex ?? '', 16));
  });
}

/** NUL, surrogates and values beyond Unicode are not characters: U+FFFD, as browsers do. */
function fromCodePoint(code: number): string {
  const invalid = !(code > 0 && code <= 0x10ffff) || (code >= 0xd800 && code <= 0xdfff);
  return String.fromCodePoint(invalid ? 0xfffd : code);
}
