/**
 * The worker side of a JobThread (job-thread.ts): each `{ id, job }` from the service's thread answered with what
 * `handle` made of it, or the error it threw. Jobs are started as they come; one that holds this thread's loop holds
 * only this thread's.
 */
import { parentPort } from 'node:worker_threads';
import type { JobReply } from './job-thread.js';

export function serveJobs<J, R>(name: string, handle: (job: J) => R | Promise<R>): void {
  const port = parentPort;
  if (port === null) throw new Error(`${name} runs as a worker thread (job-thread.ts)`);
  port.on('message', ({ id, job }: { id: number; job: J }) => {
    const answer = (reply: JobReply<R>): void => port.postMessage(reply);
    const failed = (error: unknown): void =>
      answer({ id, error: error instanceof Error ? error.message : String(error) });
    try {
      void Promise.resolve(handle(job)).then((result) => answer({ id, result }), failed);
    } catch (error) {
      failed(error);
    }
  });
}
