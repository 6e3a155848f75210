/**
 * The shared formatters (src/formats) measure JSON sizes with Node's `Buffer.byteLength`; the browser has no Buffer.
 * This gives the bundle that one function (UTF-8 byte count, the same number), so templates are checked and rendered
 * in the console exactly as the service does. Defined only where Buffer is missing.
 */
declare global {
  // Only what src/formats uses; in Node the real Buffer is there and this is never installed.
  var Buffer: { byteLength(text: string, encoding?: 'utf8'): number };
}

const encoder = new TextEncoder();

if (typeof globalThis.Buffer === 'undefined') {
  globalThis.Buffer = { byteLength: (text: string) => encoder.encode(text).length };
}

export {};
