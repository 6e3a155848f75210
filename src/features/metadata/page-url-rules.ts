/**
 * What url-to-metadata requires of a page URL before it fetches anything, worded as the service answers it: shared by
 * the route (page-fetch.ts) and the console's form, which refuses in the page what would be refused (and charged).
 * Whether the URL's host is a public address is only the service's to judge, at fetch time (src/outbound).
 */
import { OutboundError } from '../../outbound/errors.js';
import { parseTargetUrl } from '../../outbound/url-rules.js';

/** The longest page URL taken, as given (the request schema's limit). */
export const MAX_PAGE_URL_LENGTH = 2048;
/** The schema's words for a longer one (`Invalid url: …`). */
export const PAGE_URL_LENGTH_RULE = `must be a string of at most ${MAX_PAGE_URL_LENGTH} characters`;

/** url-to-metadata has always worded the syntax and scheme rules this way; parseTargetUrl's other messages pass through. */
const URL_RULE_WORDING: ReadonlyMap<string, string> = new Map([
  ['Invalid url: must be a valid URL', 'Invalid url: must be an absolute http or https URL'],
  ['Invalid url: must be an http or https URL', 'Invalid url: must be an absolute http or https URL'],
]);

/** An outbound URL rule's message as url-to-metadata words it. */
export const pageUrlWording = (message: string): string => URL_RULE_WORDING.get(message) ?? message;

export type PageUrlCheck = { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly error: string };

/** The page URL as the caller gave it (trimmed), or the 400 text the service answers it with. */
export function checkPageUrl(raw: string): PageUrlCheck {
  if (raw.length > MAX_PAGE_URL_LENGTH) return { ok: false, error: `Invalid url: ${PAGE_URL_LENGTH_RULE}` };
  try {
    return { ok: true, url: parseTargetUrl(raw.trim(), true) };
  } catch (error) {
    if (error instanceof OutboundError) return { ok: false, error: pageUrlWording(error.message) };
    throw error;
  }
}
