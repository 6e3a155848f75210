/** A paid listing's body: its error, loading, empty message or table, then "More" and what the last page cost. */
import type { ComponentChildren } from 'preact';
import { Charged, ErrorNote, Loading } from '../../components/ui.js';
import type { PagedList } from '../../components/use-paged-list.js';
import { MoreButton } from './more-button.js';

export interface PagedListingProps<T> {
  readonly list: PagedList<T>;
  /** Plural, as the More button and the count say it: "keys". */
  readonly noun: string;
  /** Singular: "1 key shown". */
  readonly one: string;
  /** Said when a page came back empty. */
  readonly empty: string;
  readonly children: (items: readonly T[]) => ComponentChildren;
}

export function PagedListing<T>({ list, noun, one, empty, children }: PagedListingProps<T>) {
  return (
    <>
      <ErrorNote error={list.error} />
      {list.items === undefined ? (
        <Loading when={list.loading} />
      ) : list.items.length === 0 ? (
        <p class="muted">{empty}</p>
      ) : (
        children(list.items)
      )}
      <MoreButton list={list} noun={noun} one={one} />
      <Charged cost={list.cost} balance={list.balance} />
    </>
  );
}
