/**
 * Stands in for node:url in the browser bundle (see node-net.ts). Node's `domainToASCII` is the WHATWG URL host
 * parser (UTS #46), which the browser's URL runs too; '' for a name it refuses, as Node answers.
 */
export function domainToASCII(domain: string): string {
  try {
    return new URL(`http://${domain}/`).hostname;
  } catch {
    return '';
  }
}
