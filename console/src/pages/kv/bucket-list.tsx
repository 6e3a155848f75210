/** `#/kv`: the wallet's buckets with their key counts and sizes (GET /kv, 1 credit a page), and a form to set a value. */
import { useState } from 'preact/hooks';
import { PageTitle } from '../../components/ui.js';
import { href } from '../../router.js';
import { listBuckets } from './kv-api.js';
import type { BucketSummary } from './kv-api.js';
import { formatBytes, formatCount, utf8Bytes } from './kv-format.js';
import { PrefixFilter } from './prefix-filter.js';
import { SetValueForm } from './set-value-form.js';
import type { SavedEntry } from './set-value-form.js';
import { usePagedList } from '../../components/use-paged-list.js';
import { PagedListing } from './paged-listing.js';

export function BucketList() {
  // A new object on every Filter, so pressing it again with the same prefix reads the list afresh.
  const [filter, setFilter] = useState({ prefix: '' });
  const { prefix } = filter;
  const list = usePagedList((cursor) => listBuckets({ prefix, cursor }), [filter]);
  return (
    <>
      <PageTitle title="Key-value">Key-value</PageTitle>
      <p class="muted">
        Each page of a listing, and each read, set or delete of a value, costs 1 credit, exactly as the same API call.
        An action costs only what its button says: the lists follow it without being read again.
      </p>
      <section class="panel" aria-labelledby="kv-buckets-heading">
        <h2 id="kv-buckets-heading">Buckets</h2>
        <PrefixFilter
          id="kv-bucket-prefix"
          label="Buckets starting with"
          onApply={(applied) => setFilter({ prefix: applied })}
        />
        <PagedListing
          list={list}
          noun="buckets"
          one="bucket"
          empty={
            prefix === ''
              ? 'No buckets yet: set a value below and its bucket appears here.'
              : `No bucket starts with “${prefix}”.`
          }
        >
          {(buckets) => <BucketTable buckets={buckets} />}
        </PagedListing>
        <p class="muted small">
          A set adds a new bucket here without listing again; the counts are as last listed (Filter lists again, 1
          credit).
        </p>
      </section>
      <section class="panel" aria-labelledby="kv-set-heading">
        <h2 id="kv-set-heading">Set a value</h2>
        <SetValueForm
          id="kv-new"
          onSaved={(saved) => list.update((buckets) => withBucket(buckets, saved, list.more))}
        />
      </section>
    </>
  );
}

/**
 * The bucket list after a set, from what was set, without reading the list again (a credit): a new bucket gets its row
 * (when it falls within the rows shown). A bucket already listed keeps its counts, which the note under the table says.
 */
function withBucket(buckets: readonly BucketSummary[], saved: SavedEntry, more: boolean): readonly BucketSummary[] {
  if (buckets.some((row) => row.bucket === saved.bucket)) return buckets;
  const last = buckets[buckets.length - 1];
  if (more && last !== undefined && saved.bucket > last.bucket) return buckets;
  const row: BucketSummary = { bucket: saved.bucket, keys: 1, size: utf8Bytes(saved.value), capped: false };
  return [...buckets, row].sort((a, b) => (a.bucket < b.bucket ? -1 : a.bucket > b.bucket ? 1 : 0));
}

function BucketTable({ buckets }: { buckets: readonly BucketSummary[] }) {
  return (
    <table class="kv-table" aria-labelledby="kv-buckets-heading">
      <thead>
        <tr>
          <th scope="col">Bucket</th>
          <th scope="col" class="num">
            Keys
          </th>
          <th scope="col" class="num">
            Size
          </th>
        </tr>
      </thead>
      <tbody>
        {buckets.map((bucket) => (
          <tr key={bucket.bucket}>
            <td class="kv-name">
              <a href={href('kv', bucket.bucket)}>{bucket.bucket}</a>
            </td>
            <td class="num" title={bucket.capped ? 'Counted up to a limit: at least this many' : undefined}>
              {formatCount(bucket.keys, bucket.capped)}
            </td>
            <td class="num">
              {formatBytes(bucket.size)}
              {bucket.capped ? '+' : ''}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
