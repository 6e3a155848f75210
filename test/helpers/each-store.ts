import { describe } from 'vitest';
import { STORE_KINDS } from './stores.js';
import type { StoreKind } from './stores.js';

/** Runs `suite` once per engine, named after it. */
export function describeEachStore(name: string, suite: (kind: StoreKind) => void): void {
  for (const kind of STORE_KINDS) describe(`${name} [${kind}]`, () => suite(kind));
}
