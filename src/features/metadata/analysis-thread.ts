import { errors } from '../../errors.js';
import type { FairLimiter, PoolKey } from '../../lib/fair-limiter.js';
import { JobThread } from '../../lib/job-thread.js';
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

/**
 * Page analyses (parsing up to 1 MiB of markup, ~150 ms at the bounds of html/limits.ts) on a thread of their own
 * (analysis-worker.ts), started at the first page and kept: the event loop never holds one, so other wallets' calls
 * are answered while a page is parsed. Analyses take turns in `turns` (the `pageAnalyses` pool: one at a time,
 * wallets in turn), so a wallet's many heavy pages wait for each other, not in front of another wallet's. A thread
 * that dies fails the analysis it held (the call answers 500, free) and the next page starts a new one.
 */
export class AnalysisThread {
  private readonly thread: JobThread<AnalysisJob, HtmlAnalysis | NonHtmlAnalysis>;

  constructor(turns: FairLimiter) {
    this.thread = new JobThread({
      worker: './analysis-worker',
      from: import.meta.url,
      name: 'page analysis',
      turns,
      // A call waiting for its analysis at the stop's cut is refunded, as every 5xx is.
      closedError: () => errors.storeUnavailable(),
    });
  }

  analyze<J extends AnalysisJob>(wallet: PoolKey, job: J): Promise<ResultOf<J>> {
    return this.thread.run(wallet, job) as Promise<ResultOf<J>>;
  }

  /**
   * Stops the thread for good (the stop's grace is over, or the app closed): the analysis it held and those waiting
   * for their turn fail with a 503, so their calls, charged before their fetch, are refunded as every 5xx is.
   */
  close(): Promise<void> {
    return this.thread.close();
  }
}
