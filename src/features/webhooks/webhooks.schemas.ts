import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { ISODate, Nullable } from '../../http/schemas.js';
import { WEBHOOK_FORMATS } from '../../formats/index.js';
import { MAX_HEADER_VALUE_LENGTH, MAX_HEADERS, MAX_RETRY_ATTEMPTS, RETRY_BACKOFFS } from '../../delivery-core/index.js';
import { WEBHOOK_ID_PATTERN, WEBHOOK_ID_RULE } from './webhook-id.js';
import { MAX_CALLBACK_URL_LENGTH } from '../../outbound/url-rules.js';

/**
 * Request and response schemas of the webhook routes. Bodies are closed (an unknown field is a 400,
 * docs/contract.md#webhooks); the rules a schema cannot say (URL policy, header names, format options,
 * cron windows) are checked by webhook-rules.ts and the service.
 */

export { WEBHOOK_ID_PATTERN } from './webhook-id.js';

export const WebhookId = Type.String({
  pattern: WEBHOOK_ID_PATTERN,
  'x-error': WEBHOOK_ID_RULE,
  description: `1 to 30 characters from A-Z, a-z, 0-9, _ and -; \`call\` is reserved`,
});

export const WebhookParams = Type.Object({ webhookId: WebhookId });

const StringMap = (description: string) =>
  Type.Unsafe<Record<string, string>>({ type: 'object', additionalProperties: { type: 'string' }, description });

const Template = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  additionalProperties: true,
  description: 'JSON template with {{path}} placeholders (format custom); at most 2048 bytes and 5 nesting levels',
});

const Url = Type.String({ maxLength: MAX_CALLBACK_URL_LENGTH, description: 'HTTPS callback URL on a public host' });
const Headers = StringMap(
  `Custom headers sent with each callback (at most ${MAX_HEADERS}, values at most ${MAX_HEADER_VALUE_LENGTH} characters); values are read back as ***`,
);
const Format = Type.String({
  enum: ['', ...WEBHOOK_FORMATS],
  'x-error': `must be one of ${WEBHOOK_FORMATS.join(', ')} or ""`,
  description: 'Payload format (mailbox mode only); "" means none: the raw inbound email payload',
});
const Options = StringMap(
  'Format options (mailbox mode only): at most 10 keys, string values of at most 500 characters; chat_id for telegram, routing_key for pagerduty',
);
const IncludeAttachments = Type.Boolean({ description: 'Mailbox mode only; default true' });
const Cron = Type.String({ maxLength: 256, description: '5-field cron: minute hour day month weekday' });
const Timezone = Type.String({ maxLength: 128, description: 'IANA time zone the cron is evaluated in' });
const Active = Type.Boolean({ description: 'Default true' });

/** Opt-in retries (docs/reference.md#delivery-retries); absent or 0 keeps the single attempt of docs/contract.md#deliveries. */
export const RetryPolicy = Type.Object(
  {
    attempts: Type.Integer({
      minimum: 0,
      maximum: MAX_RETRY_ATTEMPTS,
      'x-error': `must be an integer from 0 to ${MAX_RETRY_ATTEMPTS}`,
      description: 'Attempts after a failed first one (network error, timeout, 5xx, 408, 429); 0: none',
    }),
    backoff: Type.Optional(
      Type.String({
        enum: [...RETRY_BACKOFFS],
        'x-error': 'must be exponential',
        description: 'From 30 s, doubling, at most 10 h, ±20 % jitter',
      }),
    ),
  },
  { additionalProperties: false, description: 'Delivery retries; absent: one attempt (the contract)' },
);

export const ScheduleInput = Type.Object(
  { cron: Cron, timezone: Timezone, active: Type.Optional(Active) },
  {
    additionalProperties: false,
    description: 'Scheduled mode: first run within 30 days, at most 31 days between runs',
  },
);
export type ScheduleInput = Static<typeof ScheduleInput>;

export const WebhookInput = Type.Object(
  {
    webhookId: Type.Optional(WebhookId),
    url: Url,
    headers: Type.Optional(Headers),
    format: Type.Optional(Format),
    template: Type.Optional(Template),
    options: Type.Optional(Options),
    includeAttachments: Type.Optional(IncludeAttachments),
    schedule: Type.Optional(ScheduleInput),
    retry: Type.Optional(RetryPolicy),
  },
  { additionalProperties: false },
);
export type WebhookInput = Static<typeof WebhookInput>;

export const SchedulePatch = Type.Object(
  { cron: Type.Optional(Cron), timezone: Type.Optional(Timezone), active: Type.Optional(Active) },
  { additionalProperties: false },
);
export type SchedulePatch = Static<typeof SchedulePatch>;

export const WebhookPatch = Type.Object(
  {
    url: Type.Optional(Url),
    headers: Type.Optional(Nullable(Headers)),
    format: Type.Optional(Format),
    template: Type.Optional(Nullable(Template)),
    options: Type.Optional(Nullable(Options)),
    includeAttachments: Type.Optional(IncludeAttachments),
    schedule: Type.Optional(Nullable(SchedulePatch)),
    retry: Type.Optional(Nullable(RetryPolicy)),
    rotateSecret: Type.Optional(
      Type.Boolean({ description: 'true: issue a new signing secret, returned once in this response' }),
    ),
  },
  { additionalProperties: false },
);
export type WebhookPatch = Static<typeof WebhookPatch>;

export const ScheduleView = Type.Object({
  cron: Type.String(),
  timezone: Type.String(),
  active: Type.Boolean(),
  nextRunAt: Type.Optional(Type.String({ format: 'date-time', description: 'Absent while the schedule is inactive' })),
  lastRunAt: Type.Optional(ISODate),
  lastStatus: Type.Optional(Type.String({ enum: ['success', 'failure'] })),
  lastError: Type.Optional(Type.String()),
});

/**
 * Property order is the order of the JSON answered (docs/contract.md#webhooks). The serializer writes
 * required properties first, so `hash`, always present, is declared optional to stay last.
 */
export const WebhookView = Type.Object({
  webhookId: Type.String(),
  webhook: Type.String({ description: 'The callback URL' }),
  headers: StringMap('Header names as saved, values ***'),
  format: Type.Optional(Type.String({ description: 'Mailbox mode, when set' })),
  template: Type.Optional(Template),
  options: Type.Optional(StringMap('Mailbox mode; sensitive values ***')),
  includeAttachments: Type.Optional(Type.Boolean()),
  email: Type.Optional(Type.String({ description: 'Mailbox mode: the address whose mail is delivered' })),
  schedule: Type.Optional(ScheduleView),
  retry: Type.Optional(
    Type.Object(
      { attempts: Type.Integer(), backoff: Type.String({ enum: [...RETRY_BACKOFFS] }) },
      { description: 'Present when retries are on' },
    ),
  ),
  hash: Type.Optional(Type.String({ description: 'SHA-256 hash of the token; always present' })),
  signingSecret: Type.Optional(
    Type.String({ description: 'Standard Webhooks secret (whsec_…); only on create and on rotateSecret' }),
  ),
});

export const WebhookList = Type.Object({ webhooks: Type.Array(WebhookView) });

export const TestResult = Type.Object({
  success: Type.Boolean(),
  message: Type.String({ description: '"test webhook delivered" or "webhook call failed: <cause>"' }),
});
