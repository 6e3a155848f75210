import { Worker } from 'node:worker_threads';
import type { FairLimiter, PoolKey } from './fair-limiter.js';

/** A job's answer, as it comes back from the thread. */
export type JobReply<R> =
  | { readonly id: number; readonly result: R; readonly error?: undefined }
  | { readonly id: number; readonly error: string; readonly result?: undefined };

interface Waiting<R> {
  resolve(result: R): void;
  reject(error: Error): void;
}

export interface JobThreadOptions {
  /**
   * The worker module beside the calling module, by its base name (`./analysis-worker`): run built (`.js`), or as
   * TypeScript through tsx when the service runs from its sources (`npm run dev`, the tests), as the service itself is.
   */
  readonly worker: string;
  /** The module that names it (`import.meta.url`), whose own extension says which of the two runs. */
  readonly from: string;
  /** What the work is, for errors: `page analysis`, `message parsing`. */
  readonly name: string;
  /**
   * The jobs' turns: how many run at once, wallets in turn (a pool of src/outbound/pools.ts). Without, jobs are
   * posted as they come (their callers take their turns in a pool of their own).
   */
  readonly turns?: FairLimiter;
  /** What a job waiting or running when the thread is closed fails with (its caller's answer then). */
  readonly closedError: () => Error;
}

/**
 * Work that would hold the event loop (parsing a page, a message) on a thread of its own, started with the first job
 * and kept: other wallets' calls are answered meanwhile. Jobs take turns in `turns`, so a wallet's many heavy jobs wait
 * for each other, not in front of another wallet's. A thread that dies fails the jobs it held and the next job starts
 * a new one. The worker module answers each `{ id, job }` with a JobReply (serveJobs, job-thread-worker.ts).
 */
export class JobThread<J, R> {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly waiting = new Map<number, Waiting<R>>();
  private closed = false;

  constructor(private readonly options: JobThreadOptions) {}

  run(wallet: PoolKey, job: J): Promise<R> {
    const { turns } = this.options;
    return turns === undefined ? this.post(job) : turns.run(wallet, () => this.post(job));
  }

  /** Stops the thread for good: the jobs it held and those waiting for their turn fail with `closedError`. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(this.options.closedError());
    if (worker !== undefined) await worker.terminate();
  }

  private post(job: J): Promise<R> {
    if (this.closed) return Promise.reject(this.options.closedError());
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, job });
    });
  }

  private started(): Worker {
    if (this.worker !== undefined) return this.worker;
    const fromSources = this.options.from.endsWith('.ts');
    const url = new URL(`${this.options.worker}${fromSources ? '.ts' : '.js'}`, this.options.from);
    const worker = new Worker(url, { execArgv: fromSources ? ['--import', 'tsx'] : [] });
    // Never what keeps a stopping process alive: a call waiting for a job keeps its own connection open.
    worker.unref();
    worker.on('message', (reply: JobReply<R>) => {
      const waiting = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (reply.error !== undefined) waiting?.reject(new Error(`${this.options.name} failed: ${reply.error}`));
      else waiting?.resolve(reply.result);
    });
    const fail = (error: Error): void => {
      if (this.worker !== worker) return; // closed: its jobs were failed then
      this.worker = undefined;
      this.failAll(error);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the ${this.options.name} thread ended (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
  }
}
