/**
 * A list read a page at a time with the service's opaque cursor: the first page when `keys` change, "More" appends
 * the next; a newer load wins over an older one. Nothing reloads on a timer or after an action (the wallet's listings
 * cost a credit a page): an action changes the rows shown with `update`, from its own answer.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, describeError } from '../api.js';
import type { Answer } from '../api.js';

/** One page of a list, and the cursor of the next (null on the last). */
export interface Page<T> {
  readonly items: readonly T[];
  readonly cursor: string | null;
}

export interface PagedList<T> {
  /** Undefined until the first page arrives. */
  readonly items: readonly T[] | undefined;
  /** More remain: the next page's cursor. */
  readonly more: boolean;
  readonly loading: boolean;
  readonly error: string | undefined;
  readonly cost: number | undefined;
  readonly balance: number | undefined;
  readonly loadMore: () => void;
  readonly reload: () => void;
  /** Changes the rows shown from what an action's answer says, without another (paid) read of the list. */
  readonly update: (change: (items: readonly T[]) => readonly T[]) => void;
}

interface State<T> {
  readonly items?: readonly T[];
  readonly cursor: string | null;
  readonly loading: boolean;
  readonly error?: string;
  readonly cost?: number;
  readonly balance?: number;
}

export function usePagedList<T>(
  fetchPage: (cursor: string | null) => Promise<Answer<Page<T>>>,
  keys: readonly unknown[],
): PagedList<T> {
  const [state, setState] = useState<State<T>>({ cursor: null, loading: true });
  const generation = useRef(0);
  const load = useCallback(
    (cursor: string | null, before: readonly T[]) => {
      const mine = ++generation.current;
      setState((previous) => ({ ...previous, loading: true, error: undefined }));
      fetchPage(cursor).then(
        (answer) =>
          mine === generation.current &&
          setState({
            items: [...before, ...answer.data.items],
            cursor: answer.data.cursor,
            loading: false,
            cost: answer.cost,
            balance: answer.balance,
          }),
        (failure: unknown) =>
          mine === generation.current &&
          setState((previous) => ({
            ...previous,
            loading: false,
            error: describeError(failure),
            ...(failure instanceof ApiError ? { cost: failure.cost, balance: failure.balance } : {}),
          })),
      );
    },
    // The caller's keys say when fetchPage means another list.
    keys,
  );
  useEffect(() => load(null, []), [load]);
  return {
    items: state.items,
    more: state.cursor !== null,
    loading: state.loading,
    error: state.error,
    cost: state.cost,
    balance: state.balance,
    loadMore: () => state.cursor !== null && load(state.cursor, state.items ?? []),
    reload: () => load(null, []),
    update: (change) =>
      setState((previous) =>
        previous.items === undefined ? previous : { ...previous, items: change(previous.items) },
      ),
  };
}
