/** What the scheduler feature offers the others; everything else in this folder is its own. */
export { checkScheduleWindow, parseSchedule } from './cron-rules.js';
