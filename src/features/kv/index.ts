/** What the KV feature offers the others; everything else in this folder is its own. */
export { Params as KvParams, SetQuery as KvSetQuery } from './kv.routes.js';
