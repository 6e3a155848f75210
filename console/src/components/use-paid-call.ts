/** One paid call's state for a form or button: running, the service's error, the answer, and what it cost. */
import { useState } from 'preact/hooks';
import { ApiError, describeError } from '../api.js';
import type { Answer } from '../api.js';

export interface PaidCall<T> {
  readonly busy: boolean;
  readonly error: string | undefined;
  readonly result: T | undefined;
  /** x-cost / x-balance of the last call, refused ones included (a refused call may still be charged). */
  readonly cost: number | undefined;
  readonly balance: number | undefined;
  /** Runs `work`; resolves with the answer's data, or undefined when it failed (the error is kept). */
  readonly run: (work: () => Promise<Answer<T>>) => Promise<T | undefined>;
}

/**
 * `cost` is what the call's label says it costs (a refusal for want of credits says it). `clearWhileBusy` hides the last answer as soon as the call starts (an action whose old answer would mislead, such
 * as a rotated secret); by default it stays on screen until the new one replaces it.
 */
export function usePaidCall<T>({
  clearWhileBusy = false,
  cost,
}: { clearWhileBusy?: boolean; cost?: number } = {}): PaidCall<T> {
  const [state, setState] = useState<{ busy: boolean; error?: string; result?: T; cost?: number; balance?: number }>({
    busy: false,
  });
  return {
    busy: state.busy,
    error: state.error,
    result: state.result,
    cost: state.cost,
    balance: state.balance,
    run: async (work) => {
      setState((previous) => (clearWhileBusy ? { busy: true } : { busy: true, result: previous.result }));
      try {
        const answer = await work();
        setState({ busy: false, result: answer.data, cost: answer.cost, balance: answer.balance });
        return answer.data;
      } catch (failure) {
        const charged = failure instanceof ApiError ? { cost: failure.cost, balance: failure.balance } : {};
        setState({ busy: false, error: describeError(failure, cost), ...charged });
        return undefined;
      }
    },
  };
}
