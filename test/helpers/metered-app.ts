import { Writable } from 'node:stream';
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pino from 'pino';
import type { Deps } from '../../src/deps.js';
import { registerErrorHandling } from '../../src/http/error-handler.js';
import { registerMetering } from '../../src/http/metering.js';
import { registerValidation } from '../../src/http/validation.js';

/** A line the app logged at `error` or above. */
export interface LoggedLine {
  readonly msg?: string;
}

/**
 * A bare Fastify app with the service's validation, error handling and metering on `deps`, for routes a test declares
 * itself; what it logs at `error` or above lands in `logged`. The caller adds its routes, then calls `ready()`.
 */
export function meteredApp(deps: Deps): { readonly app: FastifyInstance; readonly logged: LoggedLine[] } {
  const logged: LoggedLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged.push(JSON.parse(chunk.toString()) as LoggedLine);
      done();
    },
  });
  const app = Fastify({ loggerInstance: pino({ level: 'error' }, sink) as FastifyBaseLogger });
  registerValidation(app);
  registerErrorHandling(app, deps);
  registerMetering(app, deps);
  return { app, logged };
}
