import { Type } from '@sinclair/typebox';
import type { TSchema, Static } from '@sinclair/typebox';

/** OpenAPI 3.0 has no `type: null`; `nullable` is understood by both Ajv and the document. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Unsafe<Static<T> | null>({ ...schema, nullable: true });

/** Every plain-text answer of the service: bodies, errors and `OK`. */
export const PLAIN_TEXT = 'text/plain; charset=utf-8';

export const ISODate = Type.String({ format: 'date-time' });

const text = (description: string) => ({ description, content: { 'text/plain': { schema: { type: 'string' } } } });

/** Documented error answers (plain text); the handlers build them from the error catalogue. */
export const errorResponses = {
  400: text('Bad request: a short sentence naming the field and the rule'),
  401: text('Unauthorized'),
  402: text('Insufficient credits'),
  403: text('Forbidden'),
  404: text('Not found'),
  409: text('Conflict'),
  410: text('Gone: no longer available'),
  413: text('Payload Too Large'),
  429: text('Too Many Requests'),
  501: text('Not implemented'),
  502: text('Bad gateway: a short cause'),
  503: text('Service unavailable: a short cause'),
} as const;

export const okText = (description = 'OK') => text(description);

/** The security requirement of token-authenticated routes in the OpenAPI document. */
export const tokenAuth = [{ TokenAuth: [] as string[] }];

type ErrorStatus = keyof typeof errorResponses;

/** Responses of a route: its success schema plus the listed error statuses. */
export function responses<S>(success: S, ...statuses: ErrorStatus[]): Record<number, unknown> {
  const out: Record<number, unknown> = { 200: success };
  for (const status of statuses) out[status] = errorResponses[status];
  return out;
}
