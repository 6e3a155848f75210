/** One paid action's state: running, the service's error, and what the last call cost (x-cost / x-balance). */
import { useState } from 'preact/hooks';
import { ApiError, describeError } from '../../api.js';
import type { Answer } from '../../api.js';

export interface ActionState<T> {
  readonly busy: boolean;
  readonly error: string | undefined;
  readonly result: T | undefined;
  readonly cost: number | undefined;
  readonly balance: number | undefined;
  /** Runs `work`; resolves with its answer's data, or undefined when it failed (the error is kept). */
  run(work: () => Promise<Answer<T>>): Promise<T | undefined>;
  clear(): void;
}

export function useAction<T>(): ActionState<T> {
  const [state, setState] = useState<{ busy: boolean; error?: string; result?: T; cost?: number; balance?: number }>({ busy: false });
  return {
    busy: state.busy,
    error: state.error,
    result: state.result,
    cost: state.cost,
    balance: state.balance,
    async run(work) {
      setState({ busy: true });
      try {
        const answer = await work();
        setState({ busy: false, result: answer.data, cost: answer.cost, balance: answer.balance });
        return answer.data;
      } catch (failure) {
        // A refused call may still have been charged: show that too.
        const charged = failure instanceof ApiError ? { cost: failure.cost, balance: failure.balance } : {};
        setState({ busy: false, error: describeError(failure), ...charged });
        return undefined;
      }
    },
    clear: () => setState({ busy: false }),
  };
}
