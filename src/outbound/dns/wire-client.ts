import { randomInt } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { encode, RECURSION_DESIRED } from 'dns-packet';
import type { Answer } from 'dns-packet';
import type { DnsRecord, QueryBudget, QueryFailure, QueryOptions, RecordType, ServerAddress } from './dns-types.js';
import { toRecord } from './wire-records.js';
import { tcpExchange, TransportError, udpExchange } from './wire-transport.js';
import type { DnsResponse } from './wire-transport.js';

export type QueryResult =
  | { readonly ok: true; readonly records: DnsRecord[]; readonly elapsedMs: number; readonly owner?: string }
  | { readonly ok: false; readonly failure: QueryFailure; readonly elapsedMs: number };

/** DNS on the wire: UDP, TCP when the answer is truncated, with the request's timeout and retries. */
export interface DnsClient {
  /** The resolvers asked when a query names none (DNS_SERVERS, or the system's). */
  readonly servers: readonly ServerAddress[];
  /** Records of `type` at `name`, following CNAMEs for other types. Never throws for DNS failures. */
  query(
    name: string,
    type: RecordType,
    options: QueryOptions,
    servers?: readonly ServerAddress[],
  ): Promise<QueryResult>;
}

/** A payload size that avoids IP fragmentation (DNS flag day 2020); larger answers come over TCP. */
const EDNS_UDP_SIZE = 1232;
const MAX_CNAME_HOPS = 8;
/** Answers another try may change: the server's trouble, not the name's. */
const RETRYABLE_RCODES = new Set(['SERVFAIL', 'REFUSED']);
const KNOWN_RCODES = new Set<QueryFailure>(['NXDOMAIN', 'SERVFAIL', 'REFUSED', 'FORMERR', 'NOTIMP']);

class QueryError extends Error {
  constructor(readonly failure: QueryFailure) {
    super(failure);
  }
}

const canonical = (name: string): string => name.toLowerCase().replace(/\.$/, '');

function encodeQuery(id: number, name: string, type: RecordType): Buffer {
  return encode({
    type: 'query',
    id,
    flags: RECURSION_DESIRED,
    questions: [{ type, name }],
    additionals: [
      {
        type: 'OPT',
        name: '.',
        udpPayloadSize: EDNS_UDP_SIZE,
        extendedRcode: 0,
        ednsVersion: 0,
        flags: 0,
        flag_do: false,
        options: [],
      },
    ],
  });
}

/** Counts one packet against the request's cap; past it, the query fails at once. */
function spendPacket(budget: QueryBudget | undefined): void {
  if (budget !== undefined && !budget.takePacket()) throw new QueryError('PACKET_LIMIT');
}

/** What a query asks: the records of `type` at `name`. */
interface Question {
  readonly name: string;
  readonly type: RecordType;
}

/** One try at one server: UDP, then TCP within the same time budget when the answer says TC. */
async function exchange(
  server: ServerAddress,
  { name, type }: Question,
  timeoutMs: number,
  budget: QueryBudget | undefined,
): Promise<DnsResponse> {
  const id = randomInt(0, 65_536);
  const message = encodeQuery(id, name, type);
  const check = (packet: DnsResponse): boolean => {
    if (packet.id !== id || packet.type !== 'response') return false;
    const question = packet.questions?.[0];
    return question === undefined || (canonical(question.name) === canonical(name) && question.type === type);
  };
  const deadline = performance.now() + timeoutMs;
  spendPacket(budget);
  const answer = await udpExchange(server, message, check, timeoutMs);
  if (!answer.flag_tc) return answer;
  const remaining = Math.round(deadline - performance.now());
  if (remaining <= 0) throw new TransportError('TIMEOUT', `no answer within ${timeoutMs} ms`);
  spendPacket(budget);
  return tcpExchange(server, message, check, remaining);
}

/** What is left of the request deadline; Infinity without one. */
const remainingOf = (budget: QueryBudget | undefined): number =>
  budget === undefined ? Infinity : budget.remainingMs();

/**
 * 1 + maxRetries tries, `retryDelayMs` apart, rotating through the servers. No try and no pause
 * outlasts the request deadline: once it has passed, the query fails as TIMEOUT.
 */
async function ask(
  name: string,
  type: RecordType,
  servers: readonly ServerAddress[],
  options: QueryOptions,
): Promise<DnsResponse> {
  let last: QueryFailure = 'TIMEOUT';
  const question: Question = { name, type };
  for (let attempt = 0; attempt <= options.maxRetries; attempt++) {
    if (attempt > 0 && options.retryDelayMs > 0)
      await sleep(Math.min(options.retryDelayMs, remainingOf(options.budget)));
    const timeoutMs = Math.min(options.timeoutMs, remainingOf(options.budget));
    if (timeoutMs <= 0) throw new QueryError('TIMEOUT');
    const server = servers[attempt % servers.length] as ServerAddress;
    try {
      const response = await exchange(server, question, timeoutMs, options.budget);
      const rcode = response.rcode ?? 'NOERROR';
      if (rcode === 'NOERROR' || rcode === 'NXDOMAIN') return response;
      last = KNOWN_RCODES.has(rcode as QueryFailure) ? (rcode as QueryFailure) : 'OTHER';
      if (!RETRYABLE_RCODES.has(rcode)) break;
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      last = error.failure;
    }
  }
  throw new QueryError(last);
}

function recordsOf(answers: readonly Answer[], name: string, type: RecordType): DnsRecord[] {
  const out: DnsRecord[] = [];
  for (const answer of answers) {
    if (answer.type !== type || canonical(answer.name) !== name) continue;
    const record = toRecord(answer);
    if (record !== undefined) out.push(record);
  }
  return out;
}

/**
 * The records of `type` at `name`. A recursive resolver answers with the whole CNAME chain;
 * when a server stops at an alias it does not answer for, the alias target is asked next.
 */
async function resolve(
  name: string,
  type: RecordType,
  servers: readonly ServerAddress[],
  options: QueryOptions,
): Promise<{ records: DnsRecord[]; owner: string }> {
  let target = canonical(name);
  const seen = new Set([target]);
  for (let hop = 0; hop <= MAX_CNAME_HOPS; hop++) {
    const response = await ask(target, type, servers, options);
    if (response.rcode === 'NXDOMAIN') throw new QueryError('NXDOMAIN');
    const answers = response.answers ?? [];
    let current = target;
    for (;;) {
      const found = recordsOf(answers, current, type);
      if (found.length > 0 || type === 'CNAME') return { records: found, owner: current };
      const alias = answers.find((answer) => answer.type === 'CNAME' && canonical(answer.name) === current);
      if (alias === undefined || alias.type !== 'CNAME') break;
      current = canonical(alias.data);
      if (seen.has(current)) throw new QueryError('CNAME_LOOP');
      seen.add(current);
    }
    if (current === target) return { records: [], owner: current };
    target = current;
  }
  throw new QueryError('CNAME_LOOP');
}

export function createDnsClient(servers: readonly ServerAddress[]): DnsClient {
  return {
    servers,
    async query(name, type, options, override) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const targets = override ?? servers;
      if (targets.length === 0) return { ok: false, failure: 'UNREACHABLE', elapsedMs: 0 };
      try {
        const { records, owner } = await resolve(name, type, targets, options);
        return { ok: true, records, elapsedMs: elapsed(), owner };
      } catch (error) {
        if (error instanceof QueryError) return { ok: false, failure: error.failure, elapsedMs: elapsed() };
        throw error;
      }
    },
  };
}
