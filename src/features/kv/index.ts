/** What the KV feature offers the others; everything else in this folder is its own. */
export { ListParams as KvListParams, ListQuery as KvListQuery, Params as KvParams, SetQuery as KvSetQuery } from './kv.routes.js';
