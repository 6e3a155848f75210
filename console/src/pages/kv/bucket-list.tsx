/** `#/kv`: the wallet's buckets with their key counts and sizes (GET /kv, 1 credit a page), and a form to set a value. */
import { useState } from 'preact/hooks';
import { PageTitle } from '../../components/ui.js';
import { href } from '../../router.js';
import { listBuckets } from './kv-api.js';
import type { BucketSummary } from './kv-api.js';
import { formatBytes, formatCount } from './kv-format.js';
import { PrefixFilter } from './prefix-filter.js';
import { SetValueForm } from './set-value-form.js';
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
      <p class="muted">Each page of a listing, and each read, set or delete of a value, costs 1 credit, exactly as the same API call.</p>
      <section class="panel" aria-labelledby="kv-buckets-heading">
        <h2 id="kv-buckets-heading">Buckets</h2>
        <PrefixFilter id="kv-bucket-prefix" label="Buckets starting with" onApply={(applied) => setFilter({ prefix: applied })} />
        <PagedListing
          list={list}
          noun="buckets"
          empty={prefix === '' ? 'No buckets yet: set a value below and its bucket appears here.' : `No bucket starts with “${prefix}”.`}
        >
          {(buckets) => <BucketTable buckets={buckets} />}
        </PagedListing>
      </section>
      <section class="panel" aria-labelledby="kv-set-heading">
        <h2 id="kv-set-heading">Set a value</h2>
        <SetValueForm id="kv-new" onSaved={list.reload} />
      </section>
    </>
  );
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
