import { HOUR, MINUTE } from '../../lib/time.js';

/** The numbers of inbound mail (docs/contract.md#inbound-e-mail, #costs) and the listener's own. */

/** docs/contract.md#costs: inbound e-mail processed costs 2 credits without attachments, 5 with. */
export const COST_WITHOUT_ATTACHMENTS = 2;
export const COST_WITH_ATTACHMENTS = 5;

/** docs/contract.md#inbound-e-mail: 1 MiB after parsing (the JSON body without format, UTF-8 bytes). */
export const PAYLOAD_MAX_BYTES = 1024 * 1024;

/**
 * Ours: all delivered bodies of one message together, UTF-8 bytes. Each mailbox's body is at most
 * PAYLOAD_MAX_BYTES and at most an equal share of what the mailboxes before it left, so one message
 * to MAX_RECIPIENTS mailboxes builds, stores and signs 16 MiB at most, not 50.
 */
export const MESSAGE_BODIES_MAX_BYTES = 16 * 1024 * 1024;

/** docs/contract.md#inbound-e-mail: attachments larger than 20 MB each are dropped, `size` kept, no `downloadUrl`. */
export const ATTACHMENT_MAX_BYTES = 20 * 1000 * 1000;

/** docs/contract.md#inbound-e-mail: download URLs live 1 hour; the sweeper deletes the bytes within minutes after. */
export const DOWNLOAD_URL_TTL_MS = HOUR;

/**
 * Largest raw message (advertised with SIZE, 552 beyond). Room for one 20 MB attachment in base64
 * (about 27 MB) plus its message, so the 20 MB rule is reachable over SMTP.
 */
export const MAX_MESSAGE_BYTES = 30 * 1024 * 1024;

/** Simultaneous SMTP connections; more are refused with 421 by smtp-server. */
export const MAX_CLIENTS = 200;

/** Recipients of one transaction; more get 452 (RFC 5321 4.5.3.1.10: the sender retries the rest). */
export const MAX_RECIPIENTS = 50;

/** Idle time before the listener hangs up on a client. */
export const SOCKET_TIMEOUT_MS = MINUTE;

/** Raw messages are kept in memory up to this size while they arrive, then spooled to a temp file. */
export const SPOOL_MEMORY_BYTES = 256 * 1024;
