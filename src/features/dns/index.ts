/** What the DNS feature offers the others; everything else in this folder is its own. */
export { DnsLookupBody } from './dns.schemas.js';
export { lookupInputProblem } from './dns-lookup.js';
export type { DnsLookupInput } from './lookup-plan.js';
