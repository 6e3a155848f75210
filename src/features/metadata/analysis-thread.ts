import { Worker } from 'node:worker_threads';
import { errors } from '../../errors.js';
import type { FairLimiter, PoolKey } from '../../lib/fair-limiter.js';
import type { HtmlAnalysis } from './html/analyze-html.js';
import type { NonHtmlAnalysis } from './non-html.js';

/** A page to analyse, as it crosses to the analysis thread: its bytes and plain values (a URL as its href). */
export type AnalysisJob =
  | {
      readonly kind: 'html';
      readonly body: Uint8Array;
      readonly url: string;
      readonly charset?: string | undefined;
      readonly contentLanguage?: string | undefined;
    }
  | {
      readonly kind: 'other';
      readonly body: Uint8Array;
      readonly truncated: boolean;
      readonly url: string;
      readonly mimeType: string;
      readonly charset?: string | undefined;
      readonly headers: Readonly<Record<string, string>>;
    };

type ResultOf<J extends AnalysisJob> = J extends { kind: 'html' } ? HtmlAnalysis : NonHtmlAnalysis;

/** The thread's answer to job `id`. */
export type AnalysisReply =
  | { readonly id: number; readonly result: HtmlAnalysis | NonHtmlAnalysis; readonly error?: undefined }
  | { readonly id: number; readonly error: string; readonly result?: undefined };

interface Waiting {
  resolve(result: HtmlAnalysis | NonHtmlAnalysis): void;
  reject(error: Error): void;
}

/**
 * Where the thread's code is: beside this file, built (`.js`), or as TypeScript when the service runs from its
 * sources (`npm run dev`, the tests), then through tsx as the service itself is.
 */
function workerSource(): { url: URL; execArgv: string[] } {
  const fromSources = import.meta.url.endsWith('.ts');
  return {
    url: new URL(fromSources ? './analysis-worker.ts' : './analysis-worker.js', import.meta.url),
    execArgv: fromSources ? ['--import', 'tsx'] : [],
  };
}

/**
 * Page analyses (parsing up to 1 MiB of markup, ~150 ms at the bounds of html/limits.ts) on a thread of their own,
 * started at the first page and kept: the event loop never holds one, so other wallets' calls are answered while a
 * page is parsed. Analyses take turns in `turns` (the `pageAnalyses` pool: one at a time, wallets in turn), so a
 * wallet's many heavy pages wait for each other, not in front of another wallet's. A thread that dies fails the
 * analysis it held (the call answers 500, free) and the next page starts a new one.
 */
export class AnalysisThread {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly waiting = new Map<number, Waiting>();
  private closed = false;

  constructor(private readonly turns: FairLimiter) {}

  analyze<J extends AnalysisJob>(wallet: PoolKey, job: J): Promise<ResultOf<J>> {
    return this.turns.run(wallet, () => this.post(job)) as Promise<ResultOf<J>>;
  }

  /**
   * Stops the thread for good (the stop's grace is over, or the app closed): the analysis it held and those waiting
   * for their turn fail with a 503, so their calls, charged before their fetch, are refunded as every 5xx is.
   */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(errors.storeUnavailable());
    if (worker !== undefined) await worker.terminate();
  }

  private post(job: AnalysisJob): Promise<HtmlAnalysis | NonHtmlAnalysis> {
    if (this.closed) return Promise.reject(errors.storeUnavailable());
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, job });
    });
  }

  private started(): Worker {
    if (this.worker !== undefined) return this.worker;
    const { url, execArgv } = workerSource();
    const worker = new Worker(url, { execArgv });
    // Never what keeps a stopping process alive: a call waiting for an analysis keeps its own connection open.
    worker.unref();
    worker.on('message', (reply: AnalysisReply) => {
      const waiting = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (reply.error !== undefined) waiting?.reject(new Error(`page analysis failed: ${reply.error}`));
      else waiting?.resolve(reply.result);
    });
    const fail = (error: Error): void => {
      if (this.worker !== worker) return; // closed: its analyses were failed then
      this.worker = undefined;
      this.failAll(error);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the page analysis thread ended (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const waiting of this.waiting.values()) waiting.reject(error);
    this.waiting.clear();
  }
}
