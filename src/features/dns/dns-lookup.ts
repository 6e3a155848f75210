import type { SecureContext } from 'node:tls';
import { performance } from 'node:perf_hooks';
import type { Clock } from '../../lib/time.js';
import type { AddressPolicy } from '../../outbound/address-policy.js';
import type { DnsRecord, QueryFailure, RecordType } from '../../outbound/dns/dns-types.js';
import { enrichDomain } from './enrichment.js';
import type { EmailEnrichment } from './enrichment.js';
import { badRequestOf } from '../../errors.js';
import { mapBounded } from '../../lib/limiter.js';
import type { FairLimiter, PoolKey } from '../../lib/fair-limiter.js';
import { planLookup } from './lookup-plan.js';
import type { DnsLookupInput, LookupPlan } from './lookup-plan.js';
import type { Target } from './names.js';
import {
  addressedServersProblem,
  checkPropagation,
  DEFAULT_PROPAGATION_SERVERS,
  resolvePropagationServers,
} from './propagation.js';
import type { PropagationResult, PropagationServer } from './propagation.js';
import { hiddenWarning, NOT_ASKED_WARNING, publicRecords } from './public-answers.js';
import {
  createRequestBudget,
  deadlineWarning,
  MAX_PACKETS_PER_REQUEST,
  packetLimitWarning,
  REQUEST_DEADLINE_MS,
} from './request-budget.js';
import type { RequestBudget, RequestLimits } from './request-budget.js';
import { createRequestResolver } from './request-resolver.js';
import type { RequestResolver } from './request-resolver.js';
import { addressesOf, ptrHostnames, reverseLookup } from './reverse.js';
import type { ReverseLookup } from './reverse.js';
import { inspectDomainCertificate } from './ssl-check.js';
import type { SslFields } from './ssl-check.js';
import type { DnsClient, QueryResult } from '../../outbound/dns/wire-client.js';

export type RecordsByType = Partial<Record<RecordType, DnsRecord[]>>;

export type LookupResult = {
  readonly domain: string;
  readonly timestamp: string;
  readonly records: RecordsByType;
  readonly errors?: Partial<Record<RecordType, QueryFailure>>;
  readonly reverseLookup?: ReverseLookup;
  readonly metadata?: { readonly queryTime: number; readonly totalRecords: number };
} & Partial<Omit<EmailEnrichment, 'warnings' | 'recommendations'>> &
  Partial<Omit<SslFields, 'warnings' | 'recommendations'>> & {
    readonly warnings?: string[];
    readonly recommendations?: string[];
  };

export interface DomainResult {
  readonly domain: string;
  readonly lookupResult: LookupResult;
  readonly propagationResults?: PropagationResult[];
}

export interface DnsLookupResponse {
  readonly summary: {
    readonly totalDomains: number;
    readonly successfulLookups: number;
    readonly failedLookups: number;
    readonly recordTypes: RecordType[];
    readonly propagationCheckEnabled: boolean;
  };
  readonly results: DomainResult[];
}

export interface DnsLookupSettings {
  readonly client: DnsClient;
  /** Judges propagation servers and TLS targets (OUTBOUND_ALLOW_CIDRS exempts ranges). */
  readonly policy: AddressPolicy;
  readonly clock: Clock;
  /** Internal: the port TLS inspection connects to; 443 outside tests. */
  readonly tlsPort?: number;
  /** TLS context with the roots trusted when judging a certificate chain; undefined keeps Node's. */
  readonly tlsContext?: SecureContext;
  /** Internal: the resolvers of a propagation check without `propagationServers`. */
  readonly propagationDefaults?: readonly PropagationServer[];
  /**
   * The process's pool of queries and TLS probes in flight, shared fairly between wallets (src/outbound/pools.ts);
   * without it, only the per-request bound applies.
   */
  readonly queryPool?: FairLimiter;
  /** Queries in flight per request. */
  readonly queryConcurrency?: number;
  /** Domains looked up at once per request. */
  readonly domainConcurrency?: number;
  /** Internal: the deadline and packet cap of one request; REQUEST_DEADLINE_MS and MAX_PACKETS_PER_REQUEST outside tests. */
  readonly requestLimits?: RequestLimits;
}

export interface DnsLookup {
  /**
   * Throws a 400 ApiError for input the schema could not judge (names, servers). `wallet`: whose share of the
   * shared query pool the queries draw on.
   */
  lookup(input: DnsLookupInput, wallet: PoolKey): Promise<DnsLookupResponse>;
}

/**
 * The 400 `lookup` would give `input` before asking any server (the plan's rules, then the servers written as IP
 * addresses against `policy`, the lookup's own), or null: free to ask, so a tool can refuse a typo before the charge.
 */
export function lookupInputProblem(input: DnsLookupInput, policy: AddressPolicy): string | null {
  let servers: readonly string[] | undefined;
  const planProblem = badRequestOf(() => (servers = planLookup(input).propagationServers));
  if (planProblem !== null || servers === undefined) return planProblem;
  return addressedServersProblem(servers, policy);
}

const DEFAULT_QUERY_CONCURRENCY = 24;
const DEFAULT_DOMAIN_CONCURRENCY = 5;
const HTTPS_PORT = 443;

interface RequestContext {
  readonly settings: DnsLookupSettings;
  readonly plan: LookupPlan;
  readonly resolver: RequestResolver;
  readonly propagation: readonly PropagationServer[] | undefined;
  readonly budget: RequestBudget;
}

/** The records to show (non-public addresses removed, counted in `hidden`), the errors, and whether every query failed. */
function collect(types: readonly RecordType[], outcomes: readonly QueryResult[], policy: AddressPolicy) {
  const records: RecordsByType = {};
  const errors: Partial<Record<RecordType, QueryFailure>> = {};
  let hidden = 0;
  types.forEach((type, index) => {
    const outcome = outcomes[index] as QueryResult;
    if (!outcome.ok) {
      errors[type] = outcome.failure;
      return;
    }
    const shown = publicRecords(outcome.records, policy);
    hidden += shown.hidden;
    if (shown.records.length > 0) records[type] = shown.records;
  });
  return { records, errors, hidden, failed: outcomes.every((outcome) => !outcome.ok) };
}

/** Why this result may be incomplete or trimmed: the request's limits, and what the address screening did. */
function limitWarnings(
  context: RequestContext,
  hidden: number,
  errors: Partial<Record<RecordType, QueryFailure>>,
): string[] {
  const warnings: string[] = [];
  if (hidden > 0) warnings.push(hiddenWarning(hidden));
  if (Object.values(errors).includes('NON_PUBLIC_ADDRESS')) warnings.push(NOT_ASKED_WARNING);
  if (context.budget.expired()) warnings.push(deadlineWarning(context.budget.limits));
  if (context.budget.exhausted()) warnings.push(packetLimitWarning(context.budget.limits));
  return warnings;
}

async function reverseOf(
  context: RequestContext,
  target: Target,
  records: RecordsByType,
  outcomes: readonly QueryResult[],
): Promise<ReverseLookup | undefined> {
  if (target.kind === 'ip') {
    const ptr = outcomes[0] as QueryResult;
    return { hostnames: ptrHostnames(records.PTR ?? []), responseTime: ptr.elapsedMs };
  }
  const addresses = addressesOf([...(records.A ?? []), ...(records.AAAA ?? [])]);
  return addresses.length === 0 ? undefined : reverseLookup(context.resolver, addresses);
}

/** A part's own fields; its warnings and recommendations go into the merged lists. */
function withoutAdvice<T extends { readonly warnings: string[]; readonly recommendations: string[] }>(
  part: T | undefined,
): Omit<T, 'warnings' | 'recommendations'> | undefined {
  if (part === undefined) return undefined;
  const { warnings: _warnings, recommendations: _recommendations, ...fields } = part;
  return fields;
}

/** One entry of `results`, and whether every query of it failed (docs/contract.md#dns-lookup: it counts in failedLookups). */
async function lookupTarget(
  context: RequestContext,
  target: Target,
): Promise<{ readonly result: DomainResult; readonly failed: boolean }> {
  const { plan, resolver, settings } = context;
  const started = performance.now();
  // An address is asked for its PTR, whatever the record types.
  const types: readonly RecordType[] = target.kind === 'ip' ? ['PTR'] : plan.recordTypes;
  const outcomes = await Promise.all(types.map((type) => resolver.query(target.name, type)));
  const { records, errors, hidden, failed } = collect(types, outcomes, settings.policy);
  // Propagation answers are shown with the same screening; what it removes is counted with the rest.
  let hiddenElsewhere = 0;
  const show = (list: DnsRecord[]) => {
    const shown = publicRecords(list, settings.policy);
    hiddenElsewhere += shown.hidden;
    return shown.records;
  };

  const isDomain = target.kind === 'domain' && !failed;
  // TLS inspection judges every address itself (and says when none is public), so it gets them all.
  const rawAddresses = outcomes.flatMap((outcome, index) =>
    outcome.ok && (types[index] === 'A' || types[index] === 'AAAA') ? outcome.records : [],
  );
  const addressRecords = plan.recordTypes.includes('A') || plan.recordTypes.includes('AAAA') ? rawAddresses : undefined;
  const [reverse, enrichment, ssl, propagation] = await Promise.all([
    plan.performReverseLookup && !failed ? reverseOf(context, target, records, outcomes) : undefined,
    plan.enableEnrichment && isDomain ? enrichDomain(resolver, target.name) : undefined,
    plan.enableSslInspection && isDomain
      ? inspectDomainCertificate(
          {
            resolver,
            policy: settings.policy,
            port: settings.tlsPort ?? HTTPS_PORT,
            secureContext: settings.tlsContext,
            now: () => settings.clock.now(),
            budget: context.budget,
          },
          target.name,
          addressRecords,
          plan.query.timeoutMs,
        )
      : undefined,
    context.propagation === undefined
      ? undefined
      : Promise.all(
          types.map((recordType, index) =>
            checkPropagation({
              resolver,
              domain: target.input,
              name: target.name,
              recordType,
              main: outcomes[index] as QueryResult,
              servers: context.propagation as readonly PropagationServer[],
              now: () => settings.clock.now(),
              show,
            }),
          ),
        ),
  ]);

  const own = limitWarnings(context, hidden + hiddenElsewhere, errors);
  const warnings = [...own, ...(enrichment?.warnings ?? []), ...(ssl?.warnings ?? [])];
  const recommendations = [...(enrichment?.recommendations ?? []), ...(ssl?.recommendations ?? [])];
  const totalRecords = Object.values(records).reduce((sum, list) => sum + list.length, 0);
  const lookupResult: LookupResult = {
    domain: target.kind === 'ip' ? target.ip : target.name,
    timestamp: new Date(settings.clock.now()).toISOString(),
    records,
    ...(Object.keys(errors).length > 0 ? { errors } : {}),
    ...(reverse === undefined ? {} : { reverseLookup: reverse }),
    ...withoutAdvice(enrichment),
    ...withoutAdvice(ssl),
    ...(enrichment === undefined && ssl === undefined && own.length === 0 ? {} : { warnings, recommendations }),
    ...(plan.includeMetadata ? { metadata: { queryTime: Math.round(performance.now() - started), totalRecords } } : {}),
  };
  return {
    result: {
      domain: target.input,
      lookupResult,
      ...(propagation === undefined ? {} : { propagationResults: propagation }),
    },
    failed,
  };
}

export function createDnsLookup(settings: DnsLookupSettings): DnsLookup {
  const { queryPool } = settings;
  return {
    async lookup(input, wallet) {
      const plan = planLookup(input);
      // Counted from here: the deadline covers the servers' names, every lookup, and TLS inspection.
      const budget = createRequestBudget(
        settings.requestLimits ?? { deadlineMs: REQUEST_DEADLINE_MS, maxPackets: MAX_PACKETS_PER_REQUEST },
      );
      const resolver = createRequestResolver(settings.client, {
        options: { ...plan.query, budget },
        concurrency: settings.queryConcurrency ?? DEFAULT_QUERY_CONCURRENCY,
        policy: settings.policy,
        slot: queryPool === undefined ? undefined : (task) => queryPool.run(wallet, task),
      });
      // Caller-chosen servers are judged even when the check is off: a refused server is a 400 either way.
      const chosen =
        plan.propagationServers === undefined
          ? undefined
          : await resolvePropagationServers(plan.propagationServers, { policy: settings.policy, resolver });
      const propagation = plan.checkPropagation
        ? (chosen ?? settings.propagationDefaults ?? DEFAULT_PROPAGATION_SERVERS)
        : undefined;
      const context: RequestContext = { settings, plan, resolver, propagation, budget };
      const outcomes = await mapBounded(
        plan.targets,
        settings.domainConcurrency ?? DEFAULT_DOMAIN_CONCURRENCY,
        (target) => lookupTarget(context, target),
      );
      const failedLookups = outcomes.filter((outcome) => outcome.failed).length;
      return {
        summary: {
          totalDomains: outcomes.length,
          successfulLookups: outcomes.length - failedLookups,
          failedLookups,
          recordTypes: [...plan.recordTypes],
          propagationCheckEnabled: plan.checkPropagation,
        },
        results: outcomes.map((outcome) => outcome.result),
      };
    },
  };
}
