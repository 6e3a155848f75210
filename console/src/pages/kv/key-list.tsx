/** `#/kv/<bucket>[/<key>]`: a bucket's live keys with their remaining time to live and size, one value open beside. */
import { useState } from 'preact/hooks';
import { PageTitle } from '../../components/ui.js';
import { href } from '../../router.js';
import { listKeys } from './kv-api.js';
import type { KeySummary } from './kv-api.js';
import { exactTime, expiresLabel, formatBytes, utf8Bytes } from './kv-format.js';
import { PagedListing } from './paged-listing.js';
import { PrefixFilter } from './prefix-filter.js';
import { SetValueForm } from './set-value-form.js';
import type { SavedEntry } from './set-value-form.js';
import { usePagedList } from '../../components/use-paged-list.js';
import { ValuePanel } from './value-panel.js';

export function KeyList({ bucket, selected }: { bucket: string; selected: string | undefined }) {
  // A new object on every Filter, so pressing it again with the same prefix reads the list afresh.
  const [filter, setFilter] = useState({ prefix: '' });
  const { prefix } = filter;
  const list = usePagedList((cursor) => listKeys(bucket, { prefix, cursor }), [bucket, filter]);
  return (
    <>
      <p class="kv-crumbs">
        <a href={href('kv')}>All buckets</a>
      </p>
      <PageTitle title={`${bucket} · Key-value`}>
        <span class="muted">Bucket</span> {bucket}
      </PageTitle>
      <div class={selected === undefined ? 'kv-browse' : 'kv-browse kv-browse-open'}>
        <section class="panel" aria-labelledby="kv-keys-heading">
          <h2 id="kv-keys-heading">Keys</h2>
          <PrefixFilter
            id="kv-key-prefix"
            label="Keys starting with"
            onApply={(applied) => setFilter({ prefix: applied })}
          />
          <PagedListing
            list={list}
            noun="keys"
            one="key"
            empty={prefix === '' ? 'No live keys in this bucket.' : `No key starts with “${prefix}”.`}
          >
            {(keys) => <KeyTable bucket={bucket} keys={keys} selected={selected} />}
          </PagedListing>
          <p class="muted small">Open a key to read its value (1 credit).</p>
        </section>
        {selected === undefined ? null : (
          <ValuePanel
            key={selected}
            bucket={bucket}
            entryKey={selected}
            listed={list.items?.find((entry) => entry.key === selected)}
            onSaved={(saved) => list.update((keys) => withKey(keys, saved, list.more))}
            onDeleted={() => list.update((keys) => keys.filter((entry) => entry.key !== selected))}
          />
        )}
      </div>
      <section class="panel" aria-labelledby="kv-set-heading">
        <h2 id="kv-set-heading">Set a value</h2>
        <SetValueForm
          id="kv-new"
          bucket={bucket}
          onSaved={(saved) => saved.bucket === bucket && list.update((keys) => withKey(keys, saved, list.more))}
        />
      </section>
    </>
  );
}

/** The key list after a set, from what was set (a set replaces the entry whole), without reading the list again. */
function withKey(keys: readonly KeySummary[], saved: SavedEntry, more: boolean): readonly KeySummary[] {
  const row: KeySummary = { key: saved.key, expiresAt: saved.expiresAt, size: utf8Bytes(saved.value) };
  if (keys.some((entry) => entry.key === saved.key))
    return keys.map((entry) => (entry.key === saved.key ? row : entry));
  const last = keys[keys.length - 1];
  if (more && last !== undefined && saved.key > last.key) return keys;
  return [...keys, row].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function KeyTable({
  bucket,
  keys,
  selected,
}: {
  bucket: string;
  keys: readonly KeySummary[];
  selected: string | undefined;
}) {
  const now = Date.now();
  return (
    <table class="kv-table" aria-labelledby="kv-keys-heading">
      <thead>
        <tr>
          <th scope="col">Key</th>
          <th scope="col">Time to live</th>
          <th scope="col" class="num">
            Size
          </th>
        </tr>
      </thead>
      <tbody>
        {keys.map((entry) => (
          <tr key={entry.key} class={entry.key === selected ? 'kv-selected' : undefined}>
            <td class="kv-name">
              <a href={href('kv', bucket, entry.key)} aria-current={entry.key === selected ? 'true' : undefined}>
                {entry.key}
              </a>
            </td>
            <td>
              <time dateTime={entry.expiresAt} title={exactTime(entry.expiresAt)}>
                {expiresLabel(entry.expiresAt, now)}
              </time>
            </td>
            <td class="num">{formatBytes(entry.size)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
