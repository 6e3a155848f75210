/**
 * The service's own input rules, for the SDK, the CLI and `coinop mcp` to refuse in the client what the service
 * would refuse (and charge for). `npm run generate -w @coinop/client` bundles this file with the service modules it
 * imports into src/generated/service-rules.js (its types in service-rules.d.ts): the client runs the service's code,
 * not a copy of it. Rules that live only in the route schemas (a pattern, a count) are taken from the service's
 * OpenAPI document at generation time (SCHEMA_FACTS), and the whole bodies it checks against those schemas are
 * judged by Ajv's code compiled from them then (body-validators.ts). Every function answers the service's 400 body,
 * or null.
 */
import { checkName, checkPrefix, checkValue, MAX_LIST_LIMIT, parseTtl } from '../../../src/features/kv/kv.rules.js';
import { parseTarget } from '../../../src/features/dns/names.js';
import {
  MAX_PROPAGATION_SERVERS,
  RETRIES_RANGE,
  RETRY_DELAY_RANGE,
  TIMEOUT_RANGE,
} from '../../../src/features/dns/request-limits.js';
import { RECORD_TYPES } from '../../../src/outbound/dns/dns-types.js';
import { parseServerSpec, SERVER_SPEC_RULE } from '../../../src/lib/server-spec.js';
import { MAILBOX_ONLY_FIELDS, scheduleConflict } from '../../../src/features/webhooks/webhook-record.js';
import { configFromInput, RENAME_REFUSED } from '../../../src/features/webhooks/webhook-rules.js';
import type { WebhookInput } from '../../../src/features/webhooks/webhooks.schemas.js';
import {
  webhookContentProblem,
  webhookUrlProblem as lowBalanceUrlProblem,
} from '../../../src/features/settings/low-balance-rules.js';
import type { LowBalanceWebhookFields } from '../../../src/features/settings/low-balance-rules.js';
import { checkScheduleWindow, parseSchedule, unknownZone } from '../../../src/lib/cron/cron-rules.js';
import { parseCronFields } from '../../../src/lib/cron/cron-fields.js';
import { canonicalZone } from '../../../src/lib/cron/zone-clock.js';
import { checkHeaders, repeatedHeaderProblem } from '../../../src/delivery-core/delivery-headers.js';
import { REQUIRED_OPTION, validateFormatConfig } from '../../../src/formats/format-config.js';
import { parseTargetUrl } from '../../../src/outbound/url-rules.js';
import { describeValidationError } from '../../../src/http/validation-wording.js';
import { BODY_VALIDATORS } from './body-validators.js';
import type { CheckedBody, SchemaFacts, StringFact } from './schema-facts.js';

declare const SCHEMA_FACTS: SchemaFacts;

export type Problem = string | null;

export function kvNameProblem(field: 'bucket' | 'key' | 'cursor', value: string): Problem {
  return checkName(field, value);
}

export function kvPrefixProblem(prefix: string): Problem {
  return checkPrefix(prefix);
}

export function kvValueProblem(value: string): Problem {
  return checkValue(value);
}

/** `ttl` as it goes in the query string (seconds). */
export function kvTtlProblem(ttl: string): Problem {
  const parsed = parseTtl(ttl);
  return parsed.ok ? null : parsed.error;
}

/** A listing's page size (keys, buckets). */
export function listLimitProblem(limit: number): Problem {
  return Number.isInteger(limit) && limit >= 1 && limit <= MAX_LIST_LIMIT
    ? null
    : `Invalid limit: must be an integer from 1 to ${MAX_LIST_LIMIT}`;
}

function stringProblem(name: string, value: string, fact: StringFact): Problem {
  const rule = (wording: string) => `Invalid ${name}: ${fact.error ?? wording}`;
  if (fact.minLength !== undefined && value.length < fact.minLength)
    return rule(`must be at least ${fact.minLength} characters`);
  if (fact.maxLength !== undefined && value.length > fact.maxLength)
    return rule(`must be at most ${fact.maxLength} characters`);
  if (fact.pattern !== undefined && !new RegExp(fact.pattern, 'u').test(value)) return rule('is not valid');
  return null;
}

/** The `domains` of a DNS lookup: how many, and each a host name or an IP address (`localhost` is neither). */
export function dnsDomainsProblem(domains: readonly string[]): Problem {
  const { domains: list, domain } = SCHEMA_FACTS;
  if (domains.length < list.minItems || domains.length > list.maxItems) return `Invalid domains: ${list.error}`;
  for (const [index, raw] of domains.entries()) {
    const problem = stringProblem(`domains[${index}]`, raw, domain);
    if (problem !== null) return problem;
    if (parseTarget(raw) === null)
      return `Invalid domains[${index}]: "${raw.slice(0, 300)}" is not a valid domain name or IP address`;
  }
  return null;
}

const DNS_FLAGS = [
  'checkPropagation',
  'performReverseLookup',
  'enableEnrichment',
  'enableSslInspection',
  'includeMetadata',
] as const;

function integerProblem(field: string, value: unknown, range: { min: number; max: number }): Problem {
  if (value === undefined) return null;
  return Number.isInteger(value) && (value as number) >= range.min && (value as number) <= range.max
    ? null
    : `Invalid ${field}: must be an integer from ${range.min} to ${range.max}`;
}

/**
 * A whole DNS lookup body, as the service's schema and planLookup judge it without the network: its domains, record
 * types, the flags, the resolver settings' ranges, the propagation servers' syntax (whether one is public is the
 * service's to say), and no unknown field.
 */
export function dnsRequestProblem(request: Readonly<Record<string, unknown>>): Problem {
  const unknown = Object.keys(request).find((field) => !SCHEMA_FACTS.dnsFields.includes(field));
  if (unknown !== undefined) return `Unknown field: ${unknown}`;
  const domains = request.domains;
  if (!Array.isArray(domains) || !domains.every((domain) => typeof domain === 'string'))
    return `Invalid domains: ${SCHEMA_FACTS.domains.error}`;
  const types = request.recordTypes;
  if (types !== undefined) {
    if (!Array.isArray(types) || types.length === 0) return 'Invalid recordTypes: must list 1 or more record types';
    const index = types.findIndex((type) => !(RECORD_TYPES as readonly unknown[]).includes(type));
    if (index >= 0) return `Invalid recordTypes[${index}]: must be one of ${RECORD_TYPES.join(', ')}`;
  }
  const flag = DNS_FLAGS.find((name) => request[name] !== undefined && typeof request[name] !== 'boolean');
  if (flag !== undefined) return `Invalid ${flag}: must be boolean`;
  const servers = request.propagationServers;
  if (servers !== undefined) {
    if (!Array.isArray(servers) || servers.length > MAX_PROPAGATION_SERVERS)
      return `Invalid propagationServers: must be a list of at most ${MAX_PROPAGATION_SERVERS} servers`;
    const index = servers.findIndex((server) => typeof server !== 'string' || parseServerSpec(server) === null);
    if (index >= 0) return `Invalid propagationServers[${index}]: ${SERVER_SPEC_RULE}`;
  }
  return (
    integerProblem('timeout', request.timeout, TIMEOUT_RANGE) ??
    integerProblem('maxRetries', request.maxRetries, RETRIES_RANGE) ??
    integerProblem('retryDelay', request.retryDelay, RETRY_DELAY_RANGE) ??
    dnsDomainsProblem(domains as string[])
  );
}

/**
 * What the service's schema says of a whole JSON body of `operation`: Ajv's own validator of it, compiled with the
 * routes' options (body-validators.ts), its first error worded as src/http/validation.ts words it; else the body as
 * the route hands it on. Ajv's `useDefaults` fills in what the schema defaults, so it judges a copy: the caller's
 * object is what the client sends.
 */
function bodySchemaChecked(operation: CheckedBody, body: unknown): { problem: string } | { body: unknown } {
  const validate = BODY_VALIDATORS[operation];
  const copy = structuredClone(body);
  return validate(copy) ? { body: copy } : { problem: describeValidationError(validate.errors?.[0], 'body') };
}

/**
 * A whole configuration (POST; PUT with the path's `pathId`) as the service judges it before its network checks: the
 * schema, the id, the mode's rules (configFromInput, the service's own), then the URL's rules that need no network.
 */
export function webhookBodyProblem(body: unknown, now: Date, pathId?: string): Problem {
  const checked = bodySchemaChecked(pathId === undefined ? 'webhookCreate' : 'webhookReplace', body);
  if ('problem' in checked) return checked.problem;
  const input = checked.body as WebhookInput;
  if (pathId !== undefined && input.webhookId !== undefined && input.webhookId !== pathId) return RENAME_REFUSED;
  if (input.webhookId !== undefined) {
    const idProblem = webhookIdProblem(input.webhookId);
    if (idProblem !== null) return idProblem;
  }
  const config = configFromInput(input, now);
  return config.ok ? webhookUrlProblem(input.url) : config.error;
}

/**
 * A PATCH's fields as far as they can be judged without the stored webhook they change: what the patch gives alone
 * settles (its schema, headers, URL, a full schedule, a cron or a zone on its own, options and a template), and a
 * format's needs only when the patch gives what they need, as the stored options or template may meet them.
 */
export function webhookPatchProblem(patch: unknown, now: Date): Problem {
  const checked = bodySchemaChecked('webhookUpdate', patch);
  if ('problem' in checked) return checked.problem;
  const fields = checked.body as {
    url?: string;
    headers?: Record<string, string> | null;
    format?: string;
    template?: Record<string, unknown> | null;
    options?: Record<string, string> | null;
    schedule?: { cron?: string; timezone?: string } | null;
  };
  const schedule = fields.schedule;
  if (schedule !== undefined && schedule !== null) {
    const conflicting = MAILBOX_ONLY_FIELDS.find((field) => fields[field as keyof typeof fields] !== undefined);
    if (conflicting !== undefined) return scheduleConflict(conflicting);
  }
  if (fields.headers !== undefined && fields.headers !== null) {
    const headersProblem = checkHeaders(fields.headers);
    if (headersProblem !== null) return headersProblem;
  }
  if (schedule?.cron !== undefined && schedule.timezone !== undefined) {
    const problem = scheduleProblem(schedule.cron, schedule.timezone, now);
    if (problem !== null) return problem;
  } else if (schedule?.cron !== undefined) {
    const cron = parseCronFields(schedule.cron);
    if (!cron.ok) return cron.error;
  } else if (schedule?.timezone !== undefined && canonicalZone(schedule.timezone) === null) {
    return unknownZone(schedule.timezone);
  }
  const alone = validateFormatConfig({ options: fields.options, template: fields.template });
  if (alone !== null) return alone;
  const format = fields.format;
  const needsStored =
    format === undefined ||
    (REQUIRED_OPTION[format] !== undefined && fields.options === undefined) ||
    (format === 'custom' && fields.template === undefined);
  if (!needsStored) {
    const formatProblem = validateFormatConfig({ format, options: fields.options, template: fields.template });
    if (formatProblem !== null) return formatProblem;
  }
  return fields.url === undefined ? null : webhookUrlProblem(fields.url);
}

/** A low-balance settings update as the service judges it before its network check (settings.routes.ts). */
export function settingsProblem(body: unknown): Problem {
  const checked = bodySchemaChecked('settingsUpdate', body);
  if ('problem' in checked) return checked.problem;
  const webhook = (checked.body as { low_balance_webhook?: LowBalanceWebhookFields | null }).low_balance_webhook;
  if (webhook === undefined || webhook === null) return null;
  return lowBalanceUrlProblem(webhook.url) ?? webhookContentProblem(webhook);
}

/** url-to-metadata's `aiSummary` level. */
export function aiSummaryProblem(level: unknown): Problem {
  return level === undefined || SCHEMA_FACTS.aiSummaryLevels.includes(level as string)
    ? null
    : `Invalid aiSummary: must be one of ${SCHEMA_FACTS.aiSummaryLevels.join(', ')}`;
}

export function webhookIdProblem(webhookId: string): Problem {
  const problem = stringProblem('webhookId', webhookId, SCHEMA_FACTS.webhookId);
  if (problem !== null) return problem;
  return SCHEMA_FACTS.reservedWebhookIds.includes(webhookId) ? `Invalid webhookId: ${webhookId} is reserved` : null;
}

/** A callback URL's rules that need no network: length, https, no credentials (whether its host is public is the service's to say). */
export function webhookUrlProblem(url: string): Problem {
  return stringProblem('url', url, SCHEMA_FACTS.webhookUrl) ?? urlRuleProblem(url, false);
}

/** The URL of a metadata fetch: length, an absolute http or https URL, no credentials. */
export function metadataUrlProblem(url: string): Problem {
  const problem = stringProblem('url', url, SCHEMA_FACTS.metadataUrl) ?? urlRuleProblem(url.trim(), true);
  // url-to-metadata words the syntax and scheme rules as one.
  return problem === 'Invalid url: must be a valid URL' || problem === 'Invalid url: must be an http or https URL'
    ? 'Invalid url: must be an absolute http or https URL'
    : problem;
}

function urlRuleProblem(url: string, allowHttp: boolean): Problem {
  try {
    parseTargetUrl(url, allowHttp);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export function webhookHeadersProblem(headers: Readonly<Record<string, string>>): Problem {
  return checkHeaders(headers);
}

/** Header names as a person typed them, one by one (`--header`): an object built from them would keep one of two. */
export function repeatedHeaderNamesProblem(names: readonly string[]): Problem {
  return repeatedHeaderProblem(names);
}

/** A mailbox webhook's format, its options and its template. */
export function webhookFormatProblem(
  format: string | null | undefined,
  options: Readonly<Record<string, string>> | null | undefined,
  template: unknown,
): Problem {
  return validateFormatConfig({ format, options, template });
}

/** A schedule's cron and zone, and its 30-day rules from `now`. */
export function scheduleProblem(cron: string, timezone: string, now: Date): Problem {
  const parsed = parseSchedule(cron, timezone);
  if (!parsed.ok) return parsed.error;
  return checkScheduleWindow(parsed.schedule, now);
}

/** What a successful call of `operationId` costs (the service's `x-cost`), with the metadata fetch's AI summary priced in. */
export function callCost(
  operationId: string,
  request: { readonly aiSummary?: string | undefined } = {},
): number | undefined {
  if (operationId === 'urlMetadata' && request.aiSummary !== undefined && request.aiSummary !== 'none')
    return SCHEMA_FACTS.metadataSummaryCost;
  return SCHEMA_FACTS.costs[operationId];
}
