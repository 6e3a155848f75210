import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { Nullable } from '../../http/schemas.js';
import { EMAIL_RULE, MAX_EMAIL_LENGTH, MAX_THRESHOLD, THRESHOLD_RULE } from './low-balance-rules.js';
import { MAX_HEADER_VALUE_LENGTH, MAX_HEADERS } from '../../delivery-core/index.js';
import { MAX_CALLBACK_URL_LENGTH } from '../../outbound/url-rules.js';

export const StringMap = (options: { maxProperties?: number; maxValueLength?: number; description?: string } = {}) =>
  Type.Unsafe<Record<string, string>>({
    type: 'object',
    additionalProperties: {
      type: 'string',
      ...(options.maxValueLength === undefined ? {} : { maxLength: options.maxValueLength }),
    },
    ...(options.maxProperties === undefined ? {} : { maxProperties: options.maxProperties }),
    ...(options.description === undefined ? {} : { description: options.description }),
  });

// additionalProperties: the response serializer would otherwise drop every key of a template.
export const JsonTemplate = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  additionalProperties: true,
  description: 'JSON template, at most 2048 bytes and 5 levels',
});

export const FORMATS = ['slack', 'discord', 'teams', 'telegram', 'pagerduty', 'custom'] as const;

export const LowBalanceWebhook = Type.Object(
  {
    url: Type.String({ maxLength: MAX_CALLBACK_URL_LENGTH, description: 'HTTPS callback URL' }),
    headers: Type.Optional(
      StringMap({
        description: `Custom headers (at most ${MAX_HEADERS}, values at most ${MAX_HEADER_VALUE_LENGTH} characters); values are read back as ***`,
      }),
    ),
    format: Type.Optional(Type.String({ enum: [...FORMATS, ''] })),
    template: Type.Optional(JsonTemplate),
    options: Type.Optional(StringMap({ maxProperties: 10, maxValueLength: 500 })),
  },
  { additionalProperties: false },
);
export type LowBalanceWebhook = Static<typeof LowBalanceWebhook>;

export const SettingsUpdate = Type.Object(
  {
    low_balance_threshold: Type.Optional(
      Type.Integer({ minimum: 0, maximum: MAX_THRESHOLD, 'x-error': THRESHOLD_RULE }),
    ),
    low_balance_webhook: Type.Optional(Nullable(LowBalanceWebhook)),
    low_balance_email: Type.Optional(
      Nullable(
        Type.String({
          format: 'email',
          maxLength: MAX_EMAIL_LENGTH,
          'x-error': EMAIL_RULE,
        }),
      ),
    ),
  },
  { additionalProperties: false },
);
export type SettingsUpdate = Static<typeof SettingsUpdate>;

export const SettingsView = Type.Object({
  low_balance_threshold: Type.Integer(),
  low_balance_webhook: Type.Optional(
    Type.Object({
      url: Type.String(),
      headers: StringMap(),
      format: Type.Optional(Type.String()),
      template: Type.Optional(JsonTemplate),
      options: Type.Optional(StringMap()),
    }),
  ),
  low_balance_email: Type.Optional(Type.String()),
});
