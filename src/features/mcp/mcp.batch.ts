import { setImmediate as nextTurnOfTheEventLoop } from 'node:timers/promises';
import { McpError } from '@modelcontextprotocol/sdk/types.js';

/** Messages one POST /mcp may carry (a JSON-RPC batch); more and the whole POST is refused. See docs/limits.md. */
export const MAX_BATCH_MESSAGES = 20;
/** Bytes of answers one POST collects; once reached, its remaining calls are answered an error instead of run. */
export const MAX_ANSWER_BYTES = 1024 * 1024;
/** The JSON-RPC error code (in the range left to servers) of a call not run because its POST's answer is full. */
export const ANSWER_FULL_CODE = -32010;

/**
 * The calls of one POST, run one after another, each on a turn of the event loop of its own: a batch answers in
 * several short steps rather than one long one, so other requests are served between its calls. Each answer's size is
 * counted; once the POST's answer reaches MAX_ANSWER_BYTES, the calls after it are not run (and so not charged).
 */
export class BatchRun {
  private previous: Promise<unknown> = Promise.resolve();
  private answeredBytes = 0;

  run<T>(call: () => Promise<T> | T, bytesOf: (answer: T) => number): Promise<T> {
    const turn = this.previous.then(async () => {
      await nextTurnOfTheEventLoop();
      if (this.answeredBytes >= MAX_ANSWER_BYTES) {
        throw new McpError(
          ANSWER_FULL_CODE,
          `Not run: this request's answer reached ${MAX_ANSWER_BYTES} bytes, so its remaining calls were not run (nor charged); send them again in another request`,
        );
      }
      const answer = await call();
      this.answeredBytes += bytesOf(answer);
      return answer;
    });
    this.previous = turn.catch(() => undefined);
    return turn;
  }
}
