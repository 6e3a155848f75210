/**
 * A TLS server on 127.0.0.1 with the certificate a test chooses (certificates.ts makes them), for TLS inspection tests:
 *
 *   const server = await startTlsServer(ca.issue({ names: ['secure.test'], days: 90 }));   // server.port
 *   const silent = await startSilentServer();                                              // never answers
 *   await server.close();
 */
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { createServer } from 'node:tls';
import type { KeyPair } from './certificates.js';

export interface TestTlsServer {
  readonly port: number;
  /** SNI names the server was asked for, in order. */
  readonly servernames: string[];
  close(): Promise<void>;
}

/** Completes handshakes with `pair`, then hangs up. */
export async function startTlsServer(pair: KeyPair): Promise<TestTlsServer> {
  const servernames: string[] = [];
  const server = createServer(
    {
      cert: pair.certPem,
      key: pair.keyPem,
      // Seen during the handshake, before the client may hang up.
      SNICallback: (servername, done) => {
        servernames.push(servername);
        done(null, undefined);
      },
    },
    (socket) => socket.end(),
  );
  server.on('tlsClientError', () => undefined);
  return listen(server, servernames);
}

/** Accepts TCP connections and never answers the ClientHello. */
export async function startSilentServer(): Promise<TestTlsServer> {
  return listen(
    createNetServer((socket) => socket.on('error', () => undefined)),
    [],
  );
}

async function listen(server: Server, servernames: string[]): Promise<TestTlsServer> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    servernames,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
