import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from '../../api.js';
import type { Page } from './operator-api.js';

export interface Pages<T> {
  readonly items: readonly T[];
  /** Whether another page exists ("More"). */
  readonly hasMore: boolean;
  readonly loading: boolean;
  readonly error: string | undefined;
  /** Appends the next page. */
  readonly more: () => void;
  /** Starts again from the first page (after a change). */
  readonly reload: () => void;
}

interface State<T> {
  readonly items: readonly T[];
  readonly cursor: string | null;
  readonly loading: boolean;
  readonly error?: string;
}

/** A cursor-paged list that grows with "More"; starts over when `keys` change. A newer load wins over an older one. */
export function usePages<T>(load: (cursor: string | undefined) => Promise<Page<T>>, keys: readonly unknown[]): Pages<T> {
  const [state, setState] = useState<State<T>>({ items: [], cursor: null, loading: true });
  const generation = useRef(0);
  const fetchPage = useCallback((cursor: string | undefined) => {
    const mine = ++generation.current;
    setState((previous) => ({ ...previous, loading: true, error: undefined }));
    load(cursor).then(
      (page) =>
        mine === generation.current &&
        setState((previous) => ({ items: cursor === undefined ? page.items : [...previous.items, ...page.items], cursor: page.cursor, loading: false })),
      (error: unknown) => mine === generation.current && setState((previous) => ({ ...previous, loading: false, error: describeError(error) })),
    );
  }, keys);
  useEffect(() => fetchPage(undefined), [fetchPage]);
  return {
    items: state.items,
    hasMore: state.cursor !== null,
    loading: state.loading,
    error: state.error,
    more: () => state.cursor !== null && fetchPage(state.cursor),
    reload: () => fetchPage(undefined),
  };
}
