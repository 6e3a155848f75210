/** What the KV feature offers the others; everything else in this folder is its own. */
export { Params as KvParams, SetQuery as KvSetQuery } from './kv.routes.js';
export {
  BUCKET_COUNT_CAP as KV_BUCKET_COUNT_CAP,
  checkKeyPath as kvKeyPathProblem,
  checkName as kvNameProblem,
  checkPaging as kvPagingProblem,
  checkValue as kvValueProblem,
  parseTtl as parseKvTtl,
} from './kv.rules.js';
export {
  BucketsQuery as KvBucketsQuery,
  ListParams as KvListParams,
  ListQuery as KvListQuery,
} from './kv.list-routes.js';
