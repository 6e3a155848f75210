import { connect } from 'node:net';

/** One HTTP/1.1 answer as the bytes arrived: nothing normalised, so a test sees what a client would. */
export interface RawAnswer {
  readonly status: number;
  /** Header names lower-cased; a repeated header keeps its last value. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Where the head of an answer ends, or -1. */
function headEnd(buffer: Buffer): number {
  return buffer.indexOf('\r\n\r\n');
}

function parseHead(head: string): { status: number; headers: Record<string, string> } {
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? Number.NaN);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers };
}

/** The body of a chunked answer once its last chunk has arrived, else undefined. */
function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd === -1) return undefined;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) throw new Error('bad chunk size');
    if (size === 0) return data.indexOf('\r\n', lineEnd + 2) === -1 ? undefined : Buffer.concat(parts);
    if (data.length < lineEnd + 2 + size + 2) return undefined;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** The first complete answer in `buffer`, or undefined while it is still arriving (`closed`: no more bytes will come). */
function firstAnswer(buffer: Buffer, bodyless: boolean, closed: boolean): RawAnswer | undefined {
  const end = headEnd(buffer);
  if (end === -1) return undefined;
  const { status, headers } = parseHead(buffer.subarray(0, end).toString('latin1'));
  const rest = buffer.subarray(end + 4);
  // 1xx answers (a 100 Continue) come before the real one.
  if (status >= 100 && status < 200) return firstAnswer(rest, bodyless, closed);
  if (bodyless || status === 204 || status === 304) return { status, headers, body: '' };
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
    const body = dechunk(rest);
    return body === undefined ? undefined : { status, headers, body: body.toString('utf8') };
  }
  const length = headers['content-length'];
  if (length !== undefined) {
    const size = Number(length);
    return rest.length < size ? undefined : { status, headers, body: rest.subarray(0, size).toString('utf8') };
  }
  return closed ? { status, headers, body: rest.toString('utf8') } : undefined;
}

/**
 * Writes `request` as it is to a fresh connection and reads the first answer. `bodyless`: the request was a HEAD.
 * Rejects when the server closes without answering or takes longer than `timeoutMs`. A request cut short waits for
 * the server's time limits (its 408).
 */
export function exchange(
  port: number,
  request: string | Buffer,
  options: { bodyless?: boolean; timeoutMs?: number } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (error: Error | undefined, answer?: RawAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error !== undefined) reject(error);
      else resolve(answer as RawAnswer);
    };
    const timer = setTimeout(
      () =>
        finish(
          new Error(
            `no complete answer within ${options.timeoutMs ?? 5000} ms: ${received.toString('latin1').slice(0, 200)}`,
          ),
        ),
      options.timeoutMs ?? 5000,
    );
    const check = (closed: boolean) => {
      const answer = firstAnswer(received, options.bodyless === true, closed);
      if (answer !== undefined) finish(undefined, answer);
      else if (closed)
        finish(
          new Error(`closed without a complete answer: ${JSON.stringify(received.toString('latin1').slice(0, 200))}`),
        );
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      check(false);
    });
    // A reset after the server answered and closed (it may close before reading all we sent) still leaves the answer.
    socket.on('error', () => check(true));
    socket.on('close', () => check(true));
    socket.write(request);
  });
}
