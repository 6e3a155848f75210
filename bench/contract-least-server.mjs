// A benchmark instrument, never the service: bare node:http doing the least that any server of the contract must do
// for a metered GET or POST /kv/{bucket}/{key} at the defaults, the store's work aside: the token's SHA-256 (tokens are
// kept only as hashes), the wallet found by it in memory, the key path checked, a POST's body read as text (Node's
// request stream, as any server on node:http reads it), bounded and its length checked, a request id, the answer with
// `x-cost`, `x-balance`, `x-request-id` and a charset, sent at the end of the event-loop turn as coinop's are, and an
// access line (the default, `info`) appended to a batch written every 100 ms to stdout (a log file), as coinop's log
// destination does. No framework, no validation library, no metrics, no charge, no call log. The ladder
// (bench/ladder.bench.ts) loads it beside bare node:http and coinop's metered floor: what it costs over bare is what
// no Node server of the contract avoids; what the floor costs over it is the framework's and coinop's own.
import { createServer } from 'node:http';
import { hash } from 'node:crypto';
import { write } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setImmediate, setInterval } from 'node:timers';

const port = Number(process.env.PORT ?? 0);
const BATCH_MS = 100;
const KEY_PATH = /^\/kv\/([^/?]{1,30})\/([^/?]{1,30})(?:\?|$)/;
const VALUE = 'a value of moderate size';
const MAX_VALUE_LENGTH = 1000;
/** Read no further than this, as coinop's route (a value is at most 1000 characters of up to 4 bytes). */
const BODY_LIMIT = 16 * 1024;
const prefix = `${Math.random().toString(36).slice(2, 10)}-`;
let requests = 0;
/** Wallets by token hash, each made on its first request (the ladder's token is funded elsewhere). */
const wallets = new Map();
let batch = '';
let writing = false;
/** The turn's answers: response, status, headers and body in turn. */
const answers = [];
const answerTurn = () => {
  for (let i = 0; i < answers.length; i += 4) {
    answers[i].writeHead(answers[i + 1], answers[i + 2]);
    answers[i].end(answers[i + 3]);
  }
  answers.length = 0;
};

setInterval(() => {
  if (writing || batch === '') return;
  const lines = batch;
  batch = '';
  writing = true;
  write(1, lines, () => (writing = false));
}, BATCH_MS).unref();

/** The metered answer (`body` ASCII, as both of the ladder's are), at the end of the turn, and its access line. */
function answer(response, id, tokenHash, method, status, body, started) {
  let wallet = wallets.get(tokenHash);
  if (wallet === undefined) wallets.set(tokenHash, (wallet = { balance: 1_000_000_000 }));
  wallet.balance -= 1;
  const headers = {
    'x-request-id': id,
    'content-type': 'text/plain; charset=utf-8',
    'x-cost': '1',
    'x-balance': String(wallet.balance),
    'content-length': String(body.length),
  };
  // Answered at the end of the turn, when coinop's answers leave (its group commit settles them there): answers sent
  // inside the socket's read callback each wake the load generator, which a slow VM charges dearly (bench/RESULTS.md).
  if (answers.length === 0) setImmediate(answerTurn);
  answers.push(response, status, headers, body);
  batch += `{"level":30,"time":${Date.now()},"reqId":"${id}","method":"${method}","route":"/kv/:bucket/:key","status":${status},"ms":${Math.round((performance.now() - started) * 100) / 100},"cost":1,"wallet":"${tokenHash.slice(0, 8)}","msg":"request"}\n`;
}

createServer((request, response) => {
  const started = performance.now();
  const id = prefix + String(++requests);
  const token = request.headers['x-token'];
  const path = KEY_PATH.exec(request.url ?? '');
  if (typeof token !== 'string' || token.length < 10 || path === null) {
    // The ladder's wait for the server to come up; never loaded.
    response.writeHead(200, { 'x-request-id': id, 'content-type': 'text/plain; charset=utf-8' });
    response.end('up');
    return;
  }
  const tokenHash = hash('sha256', token, 'hex');
  if (request.method !== 'POST') {
    answer(response, id, tokenHash, 'GET', 200, VALUE, started);
    return;
  }
  let value = '';
  request.setEncoding('utf8');
  request.on('data', (chunk) => {
    value += chunk;
    if (value.length > BODY_LIMIT) request.destroy();
  });
  request.on('end', () => {
    const tooLong = value.length > MAX_VALUE_LENGTH;
    answer(response, id, tokenHash, 'POST', tooLong ? 400 : 200, tooLong ? 'Invalid value' : 'OK', started);
  });
}).listen(port, '127.0.0.1');
