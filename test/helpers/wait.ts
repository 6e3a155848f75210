export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every 100 ms until it holds (true) or `limitMs` passes (false); a check that throws has not held yet. */
export async function until(check: () => Promise<boolean> | boolean, limitMs: number): Promise<boolean> {
  const deadline = performance.now() + limitMs;
  while (performance.now() < deadline) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return true;
    await sleep(100);
  }
  return false;
}

/** A line of the service's JSON log, as the background workers write it (`worker` names the one that wrote it). */
export interface WorkerLogLine {
  readonly level: number;
  readonly msg: string;
  readonly worker?: string;
}

/** One turn of the event loop (after the I/O callbacks queued before it). */
export const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Where a promise stands after two turns of the event loop: what was ready by then has settled. */
export async function settled(promise: Promise<unknown>): Promise<'pending' | 'resolved' | 'rejected'> {
  let state: 'pending' | 'resolved' | 'rejected' = 'pending';
  promise.then(
    () => (state = 'resolved'),
    () => (state = 'rejected'),
  );
  await turn();
  await turn();
  return state;
}
