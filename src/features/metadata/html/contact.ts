import { unique } from './text.js';

export interface ContactData {
  /** The first address found, or `''`. */
  email: string;
  /** The first number found, or `''`. */
  phone: string;
  emails: string[];
  phones: string[];
  /** Social profile URLs (the values of `social.profiles`). */
  socialProfiles: string[];
  /** Postal address from JSON-LD, or `''`. */
  address: string;
}

export interface ContactSources {
  /** From `mailto:` links. */
  mailto: readonly string[];
  /** From `tel:` links. */
  tel: readonly string[];
  /** Visible text of the page. */
  text: string;
  jsonLdEmail: string;
  jsonLdTelephone: string;
  jsonLdAddress: string;
  profiles: Readonly<Record<string, string>>;
}

const MAX_ITEMS = 20;
/** Characters of an address before its `@` (RFC 5321 allows 64). */
const LOCAL_PART = /[A-Za-z0-9._%+-]/;
const MAX_LOCAL = 64;
/** The domain right after an `@`: labels and a top-level name. Sticky, tried once per `@`. */
const DOMAIN = /(?:[A-Za-z0-9-]{1,63}\.)+[A-Za-z]{2,24}/y;
/** Looks like an address but is an asset name (`logo@2x.png`) or a placeholder. */
const NOT_EMAIL =
  /\.(png|jpe?g|gif|webp|svg|avif|css|js)$|@(example\.(com|org|net)|domain\.com|email\.com|sentry\.io)$/i;
/**
 * Phone numbers in text: international (`+44 20 7946 0958`) or North American (`(555) 012-3456`) forms only;
 * other digit runs in text are too often dates, prices or ids. Digit groups are separated by one mandatory
 * character, so the pattern has one way to read any input (linear); the 7 to 15 digits rule is applied after.
 */
const PHONE = /(?<![\w+])(?:\+\d+(?:[\s.-]?\(\d{1,4}\))?(?:[\s.-]\d+)*|\(\d{3}\)\s?\d{3}-\d{4})(?!\w)/g;

/**
 * Addresses in text, as the leftmost-longest pattern `local@domain` would find them, found from each `@`
 * instead: a pattern tried at every position rescans up to 64 characters each time.
 */
function emailsIn(text: string): string[] {
  const found: string[] = [];
  let end = 0;
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > end && at - start < MAX_LOCAL && LOCAL_PART.test(text.charAt(start - 1))) start -= 1;
    if (start === at) continue;
    DOMAIN.lastIndex = at + 1;
    const domain = DOMAIN.exec(text);
    if (domain === null) continue;
    end = DOMAIN.lastIndex;
    found.push(text.slice(start, end));
  }
  return found;
}

function digits(phone: string): string {
  return phone.replace(/\D/g, '');
}

function isEmail(candidate: string): boolean {
  return /^[^@\s]+@[^@\s]+\.[A-Za-z]{2,24}$/.test(candidate) && !NOT_EMAIL.test(candidate);
}

/** E-mail addresses, phone numbers and profiles a visitor could use to reach the site's owner. */
export function extractContact(sources: ContactSources): ContactData {
  const emails = unique(
    [...sources.mailto, sources.jsonLdEmail, ...emailsIn(sources.text)]
      .map((email) => email.trim().toLowerCase())
      .filter(isEmail),
  ).slice(0, MAX_ITEMS);
  const seenDigits = new Set<string>();
  const phones: string[] = [];
  for (const phone of [...sources.tel, sources.jsonLdTelephone, ...(sources.text.match(PHONE) ?? [])]) {
    const trimmed = phone.trim();
    const key = digits(trimmed);
    if (key.length < 7 || key.length > 15 || seenDigits.has(key) || phones.length >= MAX_ITEMS) continue;
    seenDigits.add(key);
    phones.push(trimmed);
  }
  return {
    email: emails[0] ?? '',
    phone: phones[0] ?? '',
    emails,
    phones,
    socialProfiles: Object.values(sources.profiles),
    address: sources.jsonLdAddress,
  };
}
