/**
 * The thread inbound messages are parsed on (parse-thread.ts): mailparser decodes a text part in one step when the part
 * ends (seconds for tens of MB), which here holds only this thread. The answer carries the text parts as far as a
 * payload can use them (keptForPayloads).
 */
import { serveJobs } from '../../lib/job-thread-worker.js';
import { keptForPayloads, MessageParseError, parseMessage } from './mime-parse.js';
import type { ParseJob, ParseOutcome } from './parse-thread.js';
import { readSpoolSource } from './spool.js';

async function parse(job: ParseJob): Promise<ParseOutcome> {
  try {
    return { ok: true, parsed: keptForPayloads(await parseMessage(readSpoolSource(job.source), job.options)) };
  } catch (error) {
    if (error instanceof MessageParseError) return { ok: false, reason: error.message };
    throw error;
  }
}

serveJobs('parse-worker.ts', parse);
