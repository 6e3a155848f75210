import { createSocket } from 'node:dgram';
import { connect, isIP } from 'node:net';
import { decode } from 'dns-packet';
import type { DecodedPacket } from 'dns-packet';
import type { ServerAddress } from './dns-types.js';

/** A decoded response; dns-packet's types omit the response code it sets. */
export type DnsResponse = DecodedPacket & { readonly rcode?: string };

export type TransportFailure = 'TIMEOUT' | 'UNREACHABLE' | 'BAD_RESPONSE';

export class TransportError extends Error {
  constructor(
    readonly failure: TransportFailure,
    message: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

/** Accepts only the answer to our question: same id, a response, and the question echoed (when present). */
export type ResponseCheck = (packet: DnsResponse) => boolean;

const MAX_TCP_MESSAGE = 65_535;

function tryDecode(message: Buffer): DnsResponse | undefined {
  try {
    return decode(message);
  } catch {
    return undefined;
  }
}

/**
 * One UDP exchange on a fresh socket (random source port) connected to the server, so ICMP
 * "port unreachable" surfaces as an error instead of a silent timeout. Packets that do not answer
 * our question are ignored, as a spoofing attempt would be.
 */
export function udpExchange(
  server: ServerAddress,
  query: Buffer,
  check: ResponseCheck,
  timeoutMs: number,
): Promise<DnsResponse> {
  return new Promise((resolve, reject) => {
    const socket = createSocket(isIP(server.host) === 6 ? 'udp6' : 'udp4');
    let settled = false;
    const finish = (error: TransportError | undefined, packet?: DnsResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      try {
        socket.close();
      } catch {
        // already closed
      }
      if (error !== undefined) reject(error);
      else resolve(packet as DnsResponse);
    };
    const timer = setTimeout(
      () => finish(new TransportError('TIMEOUT', `no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish(new TransportError('UNREACHABLE', error.code ?? error.message)),
    );
    socket.on('message', (message: Buffer) => {
      const packet = tryDecode(message);
      if (packet !== undefined && check(packet)) finish(undefined, packet);
    });
    socket.connect(server.port, server.host, () => {
      socket.send(query, (error) => {
        if (error) finish(new TransportError('UNREACHABLE', (error as NodeJS.ErrnoException).code ?? error.message));
      });
    });
  });
}

/** One TCP exchange (RFC 1035 4.2.2: two-byte length prefix), used when the UDP answer was truncated. */
export function tcpExchange(
  server: ServerAddress,
  query: Buffer,
  check: ResponseCheck,
  timeoutMs: number,
): Promise<DnsResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: server.host, port: server.port });
    let buffered = Buffer.alloc(0);
    let settled = false;
    const finish = (error: TransportError | undefined, packet?: DnsResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error !== undefined) reject(error);
      else resolve(packet as DnsResponse);
    };
    const timer = setTimeout(
      () => finish(new TransportError('TIMEOUT', `no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish(new TransportError('UNREACHABLE', error.code ?? error.message)),
    );
    socket.on('close', () => finish(new TransportError('BAD_RESPONSE', 'connection closed before an answer')));
    socket.on('connect', () => {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(query.length);
      socket.write(Buffer.concat([length, query]));
    });
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2) {
        const size = buffered.readUInt16BE(0);
        if (buffered.length < 2 + size) {
          if (buffered.length > MAX_TCP_MESSAGE + 2)
            finish(new TransportError('BAD_RESPONSE', 'oversized TCP message'));
          return;
        }
        const packet = tryDecode(buffered.subarray(2, 2 + size));
        buffered = buffered.subarray(2 + size);
        if (packet === undefined) return finish(new TransportError('BAD_RESPONSE', 'undecodable answer'));
        if (check(packet)) return finish(undefined, packet);
      }
    });
  });
}
