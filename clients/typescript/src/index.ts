export { Coinop, tokenHash } from './client.js';
export type { CoinopOptions, Result } from './client.js';
export * from './errors.js';
export type * from './types.js';
export type { paths, components } from './generated/schema.js';
