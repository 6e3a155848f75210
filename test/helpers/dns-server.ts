/**
 * A real DNS server on 127.0.0.1 (UDP and TCP on one port) for tests, written with dns-packet.
 * It serves the zone the test gives, like a recursive resolver would answer for it:
 *
 *   const dns = await startDnsServer({ zone: [rr('example.test', 'A', '192.0.2.1', 300)] });
 *   env.DNS_SERVERS = dns.address;                   // 127.0.0.1:<port>
 *   dns.setBehaviour((q) => (q.name === 'down.test' ? { rcode: 'SERVFAIL' } : undefined));
 *   dns.queriesFor('example.test', 'A');             // what reached the server, with times
 *   await dns.close();
 *
 * Answers: records of the asked type; else a CNAME at the name (followed inside the zone unless
 * `chaseCnames: false`); else NOERROR with no answer (NODATA) when the name or a name below it
 * exists; else NXDOMAIN. A behaviour may drop the query, delay it, answer another rcode, truncate
 * the UDP answer (TC, so the client retries over TCP) or answer a given list.
 */
import { createSocket } from 'node:dgram';
import type { Socket as UdpSocket } from 'node:dgram';
import { createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import {
  AUTHORITATIVE_ANSWER,
  decode,
  encode,
  RECURSION_AVAILABLE,
  RECURSION_DESIRED,
  TRUNCATED_RESPONSE,
} from 'dns-packet';
import type { Answer, DecodedPacket, RecordType } from 'dns-packet';

export type ZoneRecord = Answer;
export type Transport = 'udp' | 'tcp';

export interface ReceivedQuery {
  readonly name: string;
  readonly type: RecordType;
  readonly transport: Transport;
  /** performance.now() at arrival. */
  readonly at: number;
  /** 1 for the first query of this name and type (any transport), 2 for the second, … */
  readonly attempt: number;
}

export type Behaviour =
  | { readonly drop: true }
  | { readonly rcode: 'NOERROR' | 'NXDOMAIN' | 'SERVFAIL' | 'REFUSED' | 'FORMERR' | 'NOTIMP' }
  | { readonly delayMs: number }
  | { readonly truncate: true }
  | { readonly answers: readonly Answer[] };

export type BehaviourRule = (query: ReceivedQuery) => Behaviour | undefined;

export interface DnsServerOptions {
  readonly zone?: readonly ZoneRecord[];
  readonly behaviour?: BehaviourRule;
  /** Follow CNAMEs inside the zone in one answer, as a recursive resolver does. Default true. */
  readonly chaseCnames?: boolean;
}

export interface TestDnsServer {
  readonly port: number;
  /** `127.0.0.1:<port>`, for DNS_SERVERS and propagationServers. */
  readonly address: string;
  readonly queries: ReceivedQuery[];
  queriesFor(name: string, type?: RecordType, transport?: Transport): ReceivedQuery[];
  setZone(zone: readonly ZoneRecord[]): void;
  setBehaviour(rule: BehaviourRule | undefined): void;
  close(): Promise<void>;
}

/** A zone record: `rr('a.test', 'MX', { preference: 10, exchange: 'mx.a.test' }, 60)`. */
export function rr(name: string, type: RecordType, data: unknown, ttl = 300): ZoneRecord {
  return { name, type, ttl, data } as ZoneRecord;
}

/** TXT data as DNS carries it: strings of at most 255 bytes. */
export function txt(text: string, ttl = 300, name?: string): (owner: string) => ZoneRecord {
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += 255) chunks.push(text.slice(i, i + 255));
  return (owner) => rr(name ?? owner, 'TXT', chunks.length === 0 ? [''] : chunks, ttl);
}

const canonical = (name: string): string => name.toLowerCase().replace(/\.$/, '');
const RCODES = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;

function answerFromZone(
  zone: readonly ZoneRecord[],
  name: string,
  type: RecordType,
  chase: boolean,
): { rcode: number; answers: Answer[] } {
  const at = (owner: string) => zone.filter((record) => canonical(record.name) === owner);
  const answers: Answer[] = [];
  let current = canonical(name);
  for (let hop = 0; hop < 10; hop++) {
    const here = at(current);
    const matching = here.filter((record) => record.type === type);
    if (matching.length > 0) return { rcode: 0, answers: [...answers, ...matching] };
    const alias = here.find((record) => record.type === 'CNAME');
    if (alias === undefined || alias.type !== 'CNAME' || type === 'CNAME') break;
    answers.push(alias);
    if (!chase) return { rcode: 0, answers };
    current = canonical(alias.data);
  }
  if (answers.length > 0) return { rcode: 0, answers };
  const exists = zone.some(
    (record) => canonical(record.name) === current || canonical(record.name).endsWith(`.${current}`),
  );
  return { rcode: exists ? 0 : RCODES.NXDOMAIN, answers: [] };
}

export async function startDnsServer(options: DnsServerOptions = {}): Promise<TestDnsServer> {
  let zone = options.zone ?? [];
  let rule = options.behaviour;
  const chase = options.chaseCnames ?? true;
  const queries: ReceivedQuery[] = [];
  const counts = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();

  const respond = (request: DecodedPacket, transport: Transport, send: (message: Buffer) => void): void => {
    const question = request.questions?.[0];
    if (question === undefined) return;
    const key = `${canonical(question.name)}|${question.type}`;
    const attempt = (counts.get(key) ?? 0) + 1;
    counts.set(key, attempt);
    const query: ReceivedQuery = {
      name: canonical(question.name),
      type: question.type,
      transport,
      at: performance.now(),
      attempt,
    };
    queries.push(query);
    const behaviour = rule?.(query);
    if (behaviour !== undefined && 'drop' in behaviour) return;
    let rcode: number;
    let answers: readonly Answer[];
    if (behaviour !== undefined && 'answers' in behaviour) {
      rcode = 0;
      answers = behaviour.answers;
    } else if (behaviour !== undefined && 'rcode' in behaviour) {
      rcode = RCODES[behaviour.rcode];
      answers = [];
    } else {
      ({ rcode, answers } = answerFromZone(zone, question.name, question.type, chase));
    }
    const truncated = behaviour !== undefined && 'truncate' in behaviour && transport === 'udp';
    const flags =
      AUTHORITATIVE_ANSWER |
      RECURSION_AVAILABLE |
      ((request.flags ?? 0) & RECURSION_DESIRED) |
      rcode |
      (truncated ? TRUNCATED_RESPONSE : 0);
    const message = encode({
      type: 'response',
      id: request.id,
      flags,
      questions: [question],
      answers: truncated ? [] : [...answers],
    });
    const delay = behaviour !== undefined && 'delayMs' in behaviour ? behaviour.delayMs : 0;
    if (delay === 0) return send(message);
    const timer = setTimeout(() => {
      timers.delete(timer);
      send(message);
    }, delay);
    timers.add(timer);
  };

  const onUdp = (udp: UdpSocket) => (message: Buffer, remote: { port: number; address: string }) => {
    let request: DecodedPacket;
    try {
      request = decode(message);
    } catch {
      return;
    }
    respond(request, 'udp', (answer) => udp.send(answer, remote.port, remote.address));
  };

  const tcp: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        const size = buffered.readUInt16BE(0);
        const frame = buffered.subarray(2, 2 + size);
        buffered = buffered.subarray(2 + size);
        let request: DecodedPacket;
        try {
          request = decode(frame);
        } catch {
          socket.destroy();
          return;
        }
        respond(request, 'tcp', (answer) => {
          const length = Buffer.alloc(2);
          length.writeUInt16BE(answer.length);
          if (!socket.destroyed) socket.write(Buffer.concat([length, answer]));
        });
      }
    });
  });

  // UDP picks a free port; TCP must get the same one, which another process may hold: try again.
  const { udp, port } = await bindBoth(tcp, onUdp);

  return {
    port,
    address: `127.0.0.1:${port}`,
    queries,
    queriesFor: (name, type, transport) =>
      queries.filter(
        (query) =>
          query.name === canonical(name) &&
          (type === undefined || query.type === type) &&
          (transport === undefined || query.transport === transport),
      ),
    setZone(next) {
      zone = next;
    },
    setBehaviour(next) {
      rule = next;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}

async function bindBoth(
  tcp: Server,
  onUdp: (udp: UdpSocket) => (message: Buffer, remote: { port: number; address: string }) => void,
): Promise<{ udp: UdpSocket; port: number }> {
  for (let attempt = 0; ; attempt++) {
    const udp = createSocket('udp4');
    udp.on('message', onUdp(udp));
    const port = await new Promise<number>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(0, '127.0.0.1', () => resolve(udp.address().port));
    });
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(port, '127.0.0.1', () => {
          tcp.off('error', reject);
          resolve();
        });
      });
      return { udp, port };
    } catch (error) {
      await new Promise<void>((resolve) => udp.close(() => resolve()));
      if (attempt >= 20) throw error;
    }
  }
}
