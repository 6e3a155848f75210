import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from './api.js';

export interface Loaded<T> {
  readonly data: T | undefined;
  readonly error: string | undefined;
  readonly loading: boolean;
  /** Runs the load again (after a change, or on a timer). */
  readonly reload: () => void;
}

/**
 * Loads with `load` when `keys` change; a newer load wins over a slower older one. `refreshMs` reloads on a timer
 * while the page is visible (auto-refreshing tables).
 */
export function useLoad<T>(load: () => Promise<T>, keys: readonly unknown[], refreshMs?: number): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const generation = useRef(0);
  const run = useCallback(() => {
    const mine = ++generation.current;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => mine === generation.current && setState({ data, loading: false }),
      (error: unknown) =>
        mine === generation.current &&
        setState((previous) => ({ data: previous.data, error: describeError(error), loading: false })),
    );
  }, keys);
  useEffect(run, [run]);
  useEffect(() => {
    if (refreshMs === undefined) return undefined;
    const timer = setInterval(() => document.visibilityState === 'visible' && run(), refreshMs);
    return () => clearInterval(timer);
  }, [run, refreshMs]);
  return { data: state.data, error: state.error, loading: state.loading, reload: run };
}
