/** The key-value calls the browser makes, each 1 credit: the listings (beyond the contract: docs/reference.md#key-value-store) and get/set/delete. */
import { call } from '../../api.js';
import type { Answer } from '../../api.js';
import type { Page } from '../../components/use-paged-list.js';
import type { OkBody } from '../../api-types.js';

/** `size`: the live values' size in UTF-8 bytes; `capped`: more entries than the service counts per call, so `keys` and `size` are lower bounds. */
export type BucketSummary = OkBody<'kvBuckets'>['buckets'][number];
export type KeySummary = OkBody<'kvList'>['keys'][number];

export interface PageRequest {
  readonly prefix: string;
  readonly cursor: string | null;
}

export const PAGE_SIZE = 20;

const path = (...segments: string[]): string => `/kv/${segments.map(encodeURIComponent).join('/')}`;
const query = (request: PageRequest) => ({
  prefix: request.prefix,
  cursor: request.cursor ?? undefined,
  limit: PAGE_SIZE,
});

export async function listBuckets(request: PageRequest): Promise<Answer<Page<BucketSummary>>> {
  const answer = await call<{ buckets: BucketSummary[]; cursor: string | null }>('GET', '/kv', {
    query: query(request),
  });
  return { ...answer, data: { items: answer.data.buckets, cursor: answer.data.cursor } };
}

export async function listKeys(bucket: string, request: PageRequest): Promise<Answer<Page<KeySummary>>> {
  const answer = await call<{ keys: KeySummary[]; cursor: string | null }>('GET', path(bucket), {
    query: query(request),
  });
  return { ...answer, data: { items: answer.data.keys, cursor: answer.data.cursor } };
}

export const getValue = (bucket: string, key: string): Promise<Answer<string>> =>
  call<string>('GET', path(bucket, key));

/** `ttl` in seconds as the service reads it ('' leaves it out: 30 days; '0' also means the maximum). */
export const setValue = (bucket: string, key: string, value: string, ttl: string): Promise<Answer<string>> =>
  call<string>('POST', path(bucket, key), { text: value, query: { ttl } });

export const deleteValue = (bucket: string, key: string): Promise<Answer<string>> =>
  call<string>('DELETE', path(bucket, key));
