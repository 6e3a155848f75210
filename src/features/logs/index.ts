/** What the logs feature offers the others; everything else in this folder is its own. */
export { Query as LogsQuery, LogEntry, toEntry as logEntryOf } from './logs.routes.js';
export { logPage } from './logs.page.js';
export {
  NEWEST as NEWEST_LOG_POSITION,
  decodeCursor as decodeLogCursor,
  encodeCursor as encodeLogCursor,
} from './logs.cursor.js';
