// What the SDK checks before sending: the service's own rules (generated/service-rules.js, bundled from its modules),
// so input the service would refuse, and charge for, is refused here for nothing.
import * as rules from './generated/service-rules.js';
import type * as T from './types.js';

export type Problem = string | null;

/**
 * A JSON body as the service will read it: what JSON.stringify sends (a field set to undefined left out, a Date as
 * its text, NaN as null), so the checks judge the request, not the object handed to the SDK.
 */
function asSent(body: unknown): unknown {
  const text = JSON.stringify(body);
  return text === undefined ? undefined : (JSON.parse(text) as unknown);
}

/** The first problem of several, or null. */
export const first = (...problems: readonly Problem[]): Problem => problems.find((problem) => problem !== null) ?? null;

export const bucketProblem = (bucket: string): Problem => rules.kvNameProblem('bucket', bucket);

export const kvPathProblem = (bucket: string, key: string): Problem =>
  first(rules.kvNameProblem('bucket', bucket), rules.kvNameProblem('key', key));

export const kvSetProblem = (bucket: string, key: string, value: string, ttl: number | string | undefined): Problem =>
  first(
    kvPathProblem(bucket, key),
    ttl === undefined ? null : rules.kvTtlProblem(String(ttl)),
    rules.kvValueProblem(value),
  );

/** A listing's `prefix`, `cursor` and `limit` (keys of a bucket, or buckets). */
export const pagingProblem = (query: {
  prefix?: string | undefined;
  cursor?: string | undefined;
  limit?: number | undefined;
}): Problem =>
  first(
    query.prefix === undefined ? null : rules.kvPrefixProblem(query.prefix),
    query.cursor === undefined ? null : rules.kvNameProblem('cursor', query.cursor),
    query.limit === undefined ? null : rules.listLimitProblem(query.limit),
  );

export const webhookIdProblem = (webhookId: string): Problem => rules.webhookIdProblem(webhookId);

/**
 * A whole configuration (POST; PUT with its path's id). Typed `unknown`: a body read from JSON (`coinop webhook create
 * --body`) may be anything, and is refused in the service's words rather than failing on a missing field.
 */
export const webhookInputProblem = (input: unknown, now: Date, pathId?: string): Problem =>
  rules.webhookBodyProblem(asSent(input), now, pathId);

/** `--header` names as typed: the same name twice, in any case, is refused as the service refuses it in an object. */
export const repeatedHeadersProblem = (names: readonly string[]): Problem => rules.repeatedHeaderNamesProblem(names);

/** The fields a PATCH gives, judged as far as they can be without the stored webhook they change. */
export const webhookPatchProblem = (patch: unknown, now: Date): Problem =>
  rules.webhookPatchProblem(asSent(patch), now);

/** A low-balance settings update (PUT /token/settings), as the service judges it before its network check. */
export const settingsProblem = (settings: unknown): Problem => rules.settingsProblem(asSent(settings));

export const dnsProblem = (request: T.DnsLookupRequest): Problem =>
  rules.dnsRequestProblem(request as Readonly<Record<string, unknown>>);

export const metadataProblem = (request: T.UrlMetadataRequest): Problem =>
  first(rules.metadataUrlProblem(request.url), rules.aiSummaryProblem(request.aiSummary));

export const { callCost } = rules;
