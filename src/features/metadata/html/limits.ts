import { performance } from 'node:perf_hooks';

/**
 * Bounds of the analysis of one page, so a hostile page costs at most a fixed amount of work.
 * A page over any of them is analysed in part, and the answer says which bound stopped it.
 */
export const ANALYSIS_LIMITS = ['bytes', 'nodes', 'depth', 'time'] as const;
export type AnalysisLimit = (typeof ANALYSIS_LIMITS)[number];

/** Bytes of the body parsed as markup; the rest is ignored. */
export const MAX_MARKUP_BYTES = 1024 * 1024;
/** Nodes (elements, text runs, comments) built; parsing stops at the next one. */
export const MAX_NODES = 100_000;
/** Element nesting; parsing stops at the first element deeper than this (parsers slow down quadratically with depth). */
export const MAX_DEPTH = 256;
/**
 * Wall time of one analysis; parsing stops after PARSE_TIME_MS of it, so the text passes always get the rest.
 * Analyses run one at a time on their own thread (analysis-thread.ts), so this is the longest one page holds that
 * thread, never the event loop: the byte and node bounds keep real pages well inside it, the time bound is the backstop.
 */
export const ANALYSIS_TIME_MS = 150;
export const PARSE_TIME_MS = 100;

/** The clock of one analysis and the first bound it ran into. */
export class AnalysisBudget {
  private readonly parseDeadline: number;
  private readonly deadline: number;
  private ticks = 0;
  private parseOver = false;
  private timeUp = false;
  /** The first bound hit, if any. */
  limit: AnalysisLimit | undefined;

  constructor(timeMs: number = ANALYSIS_TIME_MS, parseMs: number = PARSE_TIME_MS) {
    const now = performance.now();
    this.parseDeadline = now + parseMs;
    this.deadline = now + timeMs;
  }

  hit(limit: AnalysisLimit): void {
    this.limit ??= limit;
  }

  /** Whether parsing must stop; reads the clock once every 256 calls (callers ask once per node). */
  parseExpired(): boolean {
    if (!this.parseOver && this.tick() && performance.now() > this.parseDeadline) {
      this.parseOver = true;
      this.hit('time');
    }
    return this.parseOver;
  }

  /** Whether the whole analysis is out of time (text passes stop). */
  expired(): boolean {
    if (!this.timeUp && this.tick() && performance.now() > this.deadline) {
      this.timeUp = true;
      this.hit('time');
    }
    return this.timeUp;
  }

  private tick(): boolean {
    this.ticks += 1;
    return (this.ticks & 255) === 0;
  }
}
