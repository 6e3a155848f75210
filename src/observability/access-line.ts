import pino from 'pino';
import type { Logger } from 'pino';

/** Printable ASCII but `"` and `\`: such text stands in a JSON string as it is. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** `text` as a JSON string, escaped wherever it needs to be. */
export function jsonString(text: string): string {
  return PLAIN.test(text) ? `"${text}"` : JSON.stringify(text);
}

/** JSON's number, as pino writes one: null when not finite. */
const jsonNumber = (value: number): string => (Number.isFinite(value) ? `${value}` : 'null');

/** Texts taken from a small set (methods, route patterns) keep their escaped form; past this many, new ones are escaped each time. */
const MAX_REMEMBERED = 256;

/** One answered request's fields of the access line (docs/reference.md#metrics-access-log-tracing). */
export interface AccessFields {
  reqId: string;
  /** As Node's parser read it; empty (left out of the line) for an answer Node gives before a request exists. */
  method: string;
  /** The route pattern (`/kv/:bucket/:key`), never the URL. */
  route: string;
  status: number;
  /** From the request to its answer. */
  ms: number;
  /** The answer's, undefined when it has none. */
  cost: number | undefined;
  /** The first 8 hex characters of the wallet's hash, undefined on unauthenticated calls. */
  wallet: string | undefined;
}

/**
 * The access line as pino would write `logger.info({reqId, method, route, status, ms, cost, wallet}, 'request')`,
 * byte for byte (the level, the time, the logger's bindings such as pid and hostname, the fields in that order, the
 * message), made by concatenation: no object per request, no serializer pass. The level, time function, bindings,
 * message key and line end are the logger's own, read once.
 */
export class AccessLineFormat {
  private readonly start: string;
  private readonly time: () => string;
  /** The last `,"time":…` made from the clock, for the lines of the same millisecond. */
  private lastTime = '';
  private lastNow = 0;
  private readonly bindings: string;
  private readonly end: string;
  private readonly quoted = new Map<string, string>();

  constructor(logger: Logger) {
    const own = logger as unknown as Record<symbol, unknown>;
    const { lsCacheSym, timeSym, chindingsSym, messageKeySym, endSym } = pino.symbols;
    this.start = (own[lsCacheSym] as Record<number, string>)[logger.levels.values.info!]!;
    const time = own[timeSym] as () => string;
    // pino's default, epoch milliseconds: the same text, made once a millisecond (a number's text is not free).
    this.time = time === pino.stdTimeFunctions.epochTime ? () => this.epochTime() : time;
    this.bindings = own[chindingsSym] as string;
    this.end = `,${jsonString(own[messageKeySym] as string)}:"request"${own[endSym] as string}`;
  }

  /** The line of one request; `fields` may be one record the caller fills again for each (no object per request). */
  format(fields: Readonly<AccessFields>): string {
    const { reqId, method, route, status, ms, cost, wallet } = fields;
    return (
      this.start +
      this.time() +
      this.bindings +
      ',"reqId":' +
      jsonString(reqId) +
      (method === '' ? '' : ',"method":' + this.remembered(method)) +
      ',"route":' +
      this.remembered(route) +
      ',"status":' +
      jsonNumber(status) +
      ',"ms":' +
      jsonNumber(ms) +
      (cost === undefined ? '' : ',"cost":' + jsonNumber(cost)) +
      (wallet === undefined ? '' : ',"wallet":' + jsonString(wallet)) +
      this.end
    );
  }

  private epochTime(): string {
    const now = Date.now();
    if (now !== this.lastNow) {
      this.lastNow = now;
      this.lastTime = `,"time":${now}`;
    }
    return this.lastTime;
  }

  private remembered(text: string): string {
    let quoted = this.quoted.get(text);
    if (quoted === undefined) {
      quoted = jsonString(text);
      if (this.quoted.size < MAX_REMEMBERED) this.quoted.set(text, quoted);
    }
    return quoted;
  }
}
