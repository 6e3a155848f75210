/** "More" under a paged listing: the next page (1 credit), appended. */
import { CostHint, plural } from '../../components/ui.js';
import type { PagedList } from '../../components/use-paged-list.js';

export function MoreButton({
  list,
  noun,
  one,
}: {
  list: Pick<PagedList<unknown>, 'items' | 'more' | 'loading' | 'loadMore'>;
  noun: string;
  one: string;
}) {
  if (list.items === undefined) return null;
  return (
    <div class="actions">
      {list.more ? (
        <>
          <button type="button" disabled={list.loading} onClick={list.loadMore}>
            More {noun}
          </button>
          <CostHint credits={1} />
        </>
      ) : null}
      <span class="muted small" aria-live="polite">
        {plural(list.items.length, one, noun)} shown{list.more ? '' : list.items.length === 0 ? '' : ', all of them'}
      </span>
    </div>
  );
}
