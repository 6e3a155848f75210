/** What the logs feature offers the others; everything else in this folder is its own. */
export { Query as LogsQuery } from './logs.routes.js';
