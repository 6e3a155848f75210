/**
 * The isolation scenario's figures, the bounds the victim must stay within, and how both are printed:
 * a line per failed bound (with its figure), and a Markdown table for bench/RESULTS.md.
 */
import type { HostileReport } from './protocol.js';

export interface Latencies {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** When the slowest call was sent, in ms since `since` (the start of the attack); absent without one. */
  readonly slowestAtMs?: number;
}

/** Percentiles of the samples' durations (`ms`); `since` (epoch ms) dates the slowest one. */
export function latencies(
  samples: ReadonlyArray<{ readonly ms: number; readonly at?: number }>,
  since?: number,
): Latencies {
  const sorted = [...samples].sort((a, b) => a.ms - b.ms);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]?.ms ?? Number.NaN;
  const slowest = sorted[sorted.length - 1];
  const slowestAt = since === undefined || slowest?.at === undefined ? {} : { slowestAtMs: slowest.at - since };
  return {
    count: sorted.length,
    p50: round(at(0.5)),
    p99: round(at(0.99)),
    max: round(slowest?.ms ?? Number.NaN),
    ...slowestAt,
  };
}

export const round = (ms: number): number => Math.round(ms * 10) / 10;

export interface IsolationFigures {
  readonly store: string;
  /** The victim alone, before the attack. */
  readonly quiet: {
    readonly kv: Latencies;
    readonly testMs: readonly number[];
    readonly metadataMs: readonly number[];
    readonly retryAfterDueMs: number | null;
  };
  /** The victim while the hostile wallet floods the service. */
  readonly attack: {
    readonly durationMs: number;
    readonly kv: Latencies;
    readonly healthz: Latencies;
    readonly testMs: readonly number[];
    readonly metadataMs: readonly number[];
    /** Calls that did not answer as they should (GET /kv and /healthz not 200, a test not delivered, metadata not 200). */
    readonly failures: {
      readonly kv: number;
      readonly healthz: number;
      readonly tests: number;
      readonly metadata: number;
    };
    readonly retry: {
      readonly afterDueMs: number | null;
      /** How long past due the scenario waited for it. */
      readonly waitedMs: number;
      /** When the victim's failed first attempt was sent, in ms since the attack began. */
      readonly sentAtMs: number;
      /** Whether the hostile wallet's retries had reached its receiver by then (the scenario asks for it). */
      readonly hostileRetriesInFlight: boolean;
    };
  };
  readonly hostile: HostileReport & { readonly connections: number; readonly concurrentTests: number };
}

export interface Bound {
  readonly name: string;
  readonly figure: string;
  /** The limit this run's figure was held to. */
  readonly limit: string;
  /** How the limit was derived, when it depends on the run (the quiet p99). */
  readonly derived?: string;
  readonly ok: boolean;
}

/** The requirement's bounds: a hostile wallet must not make an ordinary wallet's calls, probes or retries wait. */
export const KV_P99_FLOOR_MS = 50;
export const KV_P99_QUIET_FACTOR = 10;
export const CALL_MAX_MS = 250;
export const RETRY_AFTER_DUE_MAX_MS = 6_000;
export const SLOW_CALL_MAX_MS = 1_000;

const KV_P99_RULE = `≤ max(${KV_P99_FLOOR_MS} ms, ${KV_P99_QUIET_FACTOR} × quiet p99)`;
const ms = (value: number): string => `${Math.round(value)} ms`;
const maxOf = (values: readonly number[]): number => (values.length === 0 ? Number.NaN : Math.max(...values));

export function bounds(figures: IsolationFigures): Bound[] {
  const { quiet, attack } = figures;
  const kvP99Limit = Math.max(KV_P99_FLOOR_MS, KV_P99_QUIET_FACTOR * quiet.kv.p99);
  const failed = attack.failures.kv + attack.failures.healthz + attack.failures.tests + attack.failures.metadata;
  const retry = attack.retry.afterDueMs;
  return [
    {
      name: 'victim GET /kv p99 under attack',
      figure: ms(attack.kv.p99),
      limit: `≤ ${ms(kvP99Limit)}`,
      derived: `max(${KV_P99_FLOOR_MS} ms, ${KV_P99_QUIET_FACTOR} × quiet p99 ${ms(quiet.kv.p99)})`,
      ok: attack.kv.p99 <= kvP99Limit,
    },
    {
      name: 'victim GET /kv slowest under attack',
      figure: ms(attack.kv.max),
      limit: `≤ ${ms(CALL_MAX_MS)}`,
      ok: attack.kv.max <= CALL_MAX_MS,
    },
    {
      name: '/healthz longest poll under attack',
      figure: ms(attack.healthz.max),
      limit: `≤ ${ms(CALL_MAX_MS)}`,
      ok: attack.healthz.max <= CALL_MAX_MS,
    },
    {
      name: 'victim retry, arrival after due',
      figure: retry === null ? `not within ${ms(attack.retry.waitedMs)}` : ms(retry),
      limit: `≤ ${ms(RETRY_AFTER_DUE_MAX_MS)}`,
      ok: retry !== null && retry <= RETRY_AFTER_DUE_MAX_MS,
    },
    {
      name: 'victim test delivery, slowest under attack',
      figure: ms(maxOf(attack.testMs)),
      limit: `≤ ${ms(SLOW_CALL_MAX_MS)}`,
      ok: attack.testMs.length > 0 && maxOf(attack.testMs) <= SLOW_CALL_MAX_MS,
    },
    {
      name: 'victim url-to-metadata, slowest under attack',
      figure: ms(maxOf(attack.metadataMs)),
      limit: `≤ ${ms(SLOW_CALL_MAX_MS)}`,
      ok: attack.metadataMs.length > 0 && maxOf(attack.metadataMs) <= SLOW_CALL_MAX_MS,
    },
    {
      name: 'victim calls that failed under attack',
      figure: `${failed} (kv ${attack.failures.kv}, healthz ${attack.failures.healthz}, tests ${attack.failures.tests}, metadata ${attack.failures.metadata})`,
      limit: '0',
      ok: failed === 0,
    },
  ];
}

/**
 * What the scenario must have done for its figures to mean anything: the hostile wallet had credits and its
 * retries were in flight when the victim's retry became due.
 */
export function preconditions(figures: IsolationFigures): Bound[] {
  const refused = (tally: Record<string, number>) => (tally['401'] ?? 0) + (tally['402'] ?? 0);
  const { tests, metadata, mcpBatches, kvWrites } = figures.hostile;
  const unpaid = refused(tests) + refused(metadata) + refused(mcpBatches) + refused(kvWrites);
  return [
    { name: 'hostile calls refused 401/402 (scenario broken)', figure: String(unpaid), limit: '0', ok: unpaid === 0 },
    {
      name: 'hostile retries in flight when the victim retry was made',
      figure: String(figures.attack.retry.hostileRetriesInFlight),
      limit: 'true',
      ok: figures.attack.retry.hostileRetriesInFlight,
    },
  ];
}

/** One line per bound or precondition not met, with its figure: empty when all hold. */
export function violations(figures: IsolationFigures): string[] {
  return [...preconditions(figures), ...bounds(figures)]
    .filter((bound) => !bound.ok)
    .map(
      (bound) =>
        `[${figures.store}] ${bound.name}: ${bound.figure}, bound ${bound.limit}${bound.derived === undefined ? '' : ` = ${bound.derived}`}`,
    );
}

const list = (values: readonly number[]): string =>
  values.length === 0 ? '–' : values.map((value) => Math.round(value)).join(', ');
const tally = (counts: Record<string, number>): string =>
  Object.entries(counts)
    .map(([status, count]) => `${count}× ${status}`)
    .join(', ') || '–';

const spread = (figure: Latencies): string =>
  `${figure.p50} / ${figure.p99} ms (${figure.count}), ${figure.slowestAtMs === undefined ? '–' : `${(figure.slowestAtMs / 1000).toFixed(1)} s`}`;

/** A Markdown table of the runs' figures, one column per run. */
export function figuresTable(runs: readonly IsolationFigures[]): string {
  const rows: Array<[string, string, (run: IsolationFigures) => string]> = [
    [
      'GET /kv alone: p50 / p99 / max',
      '',
      (run) => `${run.quiet.kv.p50} / ${run.quiet.kv.p99} / ${run.quiet.kv.max} ms (${run.quiet.kv.count})`,
    ],
    ['test delivery alone', '', (run) => `${list(run.quiet.testMs)} ms`],
    ['url-to-metadata alone', '', (run) => `${list(run.quiet.metadataMs)} ms`],
    [
      'retry alone, after due',
      '',
      (run) => (run.quiet.retryAfterDueMs === null ? 'not arrived' : `${Math.round(run.quiet.retryAfterDueMs)} ms`),
    ],
  ];
  const boundRows = (run: IsolationFigures) => bounds(run);
  const header = ['figure', 'bound', ...runs.map((run) => run.store)];
  const lines = [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`];
  for (const [name, limit, value] of rows) lines.push(`| ${name} | ${limit} | ${runs.map(value).join(' | ')} |`);
  const first = runs[0];
  if (first !== undefined) {
    boundRows(first).forEach((bound, index) => {
      const cells = runs.map((run) => {
        const own = boundRows(run)[index];
        if (own === undefined) return '';
        return `${own.figure}${own.derived === undefined ? '' : ` (${own.limit})`}${own.ok ? '' : ' ✗'}`;
      });
      lines.push(
        `| ${bound.name} | ${bound.derived === undefined ? bound.limit : KV_P99_RULE} | ${cells.join(' | ')} |`,
      );
    });
  }
  const attackRows: Array<[string, (run: IsolationFigures) => string]> = [
    ['GET /kv under attack: p50 / p99 (calls), slowest at', (run) => spread(run.attack.kv)],
    ['/healthz under attack: p50 / p99 (polls), slowest at', (run) => spread(run.attack.healthz)],
    ['test deliveries under attack', (run) => `${list(run.attack.testMs)} ms`],
    ['url-to-metadata under attack', (run) => `${list(run.attack.metadataMs)} ms`],
    ['victim retry sent at (since attack start)', (run) => `${Math.round(run.attack.retry.sentAtMs)} ms`],
    ['hostile: connections / tests in flight', (run) => `${run.hostile.connections} / ${run.hostile.concurrentTests}`],
    ['hostile tests answered', (run) => tally(run.hostile.tests)],
    ['hostile url-to-metadata answered', (run) => tally(run.hostile.metadata)],
    ['hostile MCP batches answered', (run) => tally(run.hostile.mcpBatches)],
    ['hostile KV writes answered', (run) => tally(run.hostile.kvWrites)],
    [
      'hostile webhook requests (of which retries)',
      (run) => `${run.hostile.webhookRequests} (${run.hostile.webhookRetries})`,
    ],
    ['hostile slow-page requests', (run) => String(run.hostile.slowPageRequests)],
  ];
  for (const [name, value] of attackRows) lines.push(`| ${name} | | ${runs.map(value).join(' | ')} |`);
  return lines.join('\n');
}
