import type { StoredLogEntry } from '../../ledger/log-batches.js';

/** A log entry as the logs feature reads it (logs.page.ts pages through them): as stored by the ledger. */
export type LogRow = StoredLogEntry;
