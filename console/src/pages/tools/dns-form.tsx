/** POST /dns-lookup (5 credits): domains, record types, the lookups to add, and the resolver settings. */
import { useState } from 'preact/hooks';
import { call } from '../../api.js';
import { Charged, CostHint, ErrorNote } from '../../components/ui.js';
import { usePaidCall } from '../../components/use-paid-call.js';
import { DnsResult } from './dns-result.js';
import { DEFAULT_RECORD_TYPES, RECORD_TYPES } from './dns-types.js';
import type { DnsAnswer, RecordType } from './dns-types.js';
import { readableError } from './readable-error.js';
import { parseTarget } from '../../../../src/features/dns/names.js';
import { parseServerSpec, SERVER_SPEC_RULE } from '../../../../src/lib/server-spec.js';
import {
  MAX_DOMAINS,
  MAX_PROPAGATION_SERVERS,
  RETRIES_RANGE,
  TIMEOUT_RANGE,
} from '../../../../src/features/dns/request-limits.js';

const OPTIONS = [
  { name: 'checkPropagation', label: 'Check propagation across public resolvers', initial: false },
  { name: 'performReverseLookup', label: 'Reverse lookup (PTR) of the addresses found', initial: true },
  { name: 'enableEnrichment', label: 'E-mail security: MX provider, SPF, DMARC, DKIM and a score', initial: true },
  { name: 'enableSslInspection', label: 'TLS certificate of port 443', initial: true },
  { name: 'includeMetadata', label: 'Query time and record count', initial: false },
] as const;
type OptionName = (typeof OPTIONS)[number]['name'];

/** "a.com, b.com\nc.com" → the names. */
const splitList = (text: string): string[] => text.split(/[\s,]+/).filter((item) => item !== '');
/** A number field as typed: empty is left out (the service's default). */
const numberField = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

/** An integer field against the service's range for it, in its words; null when empty (its default) or within. */
function rangeProblem(field: string, text: string, range: { min: number; max: number }): string | null {
  if (text.trim() === '') return null;
  const value = Number(text.trim());
  return /^-?\d+$/.test(text.trim()) && value >= range.min && value <= range.max
    ? null
    : `Invalid ${field}: must be an integer from ${range.min} to ${range.max}`;
}

/**
 * What the service would refuse (and charge 5 credits for) in this lookup, found in the page with its own rules
 * (names.ts for each name, request-limits.ts for the bounds); null when it would run.
 */
export function lookupProblem(
  domains: readonly string[],
  types: number,
  timeout: string,
  retries: string,
  servers: readonly string[],
): string | null {
  if (domains.length === 0) return null;
  if (domains.length > MAX_DOMAINS)
    return `Invalid domains: must list 1 to ${MAX_DOMAINS} domain names or IP addresses`;
  const index = domains.findIndex((domain) => parseTarget(domain) === null);
  const bad = domains[index];
  if (bad !== undefined) return `"${bad}" is not a valid domain name or IP address (domains[${index}])`;
  if (types === 0) return 'Invalid recordTypes: must list 1 or more record types';
  if (servers.length > MAX_PROPAGATION_SERVERS)
    return `Invalid propagationServers: must be a list of at most ${MAX_PROPAGATION_SERVERS} servers`;
  // Syntax only (a port past 65535, a mangled address): whether a resolver is one the service may ask is its to judge.
  const badServer = servers.findIndex((server) => parseServerSpec(server) === null);
  if (badServer >= 0) return `Invalid propagationServers[${badServer}]: ${SERVER_SPEC_RULE}`;
  return rangeProblem('timeout', timeout, TIMEOUT_RANGE) ?? rangeProblem('maxRetries', retries, RETRIES_RANGE);
}

export function DnsLookup() {
  const [domains, setDomains] = useState('');
  const [types, setTypes] = useState<ReadonlySet<RecordType>>(new Set(DEFAULT_RECORD_TYPES));
  const [options, setOptions] = useState<Record<OptionName, boolean>>(
    () => Object.fromEntries(OPTIONS.map((option) => [option.name, option.initial])) as Record<OptionName, boolean>,
  );
  const [servers, setServers] = useState('');
  const [timeout, setTimeoutText] = useState('');
  const [retries, setRetries] = useState('');
  const lookup = usePaidCall<DnsAnswer>({ cost: 5 });

  const toggleType = (type: RecordType) => {
    const next = new Set(types);
    if (next.has(type)) next.delete(type);
    else next.add(type);
    setTypes(next);
  };

  const names = splitList(domains);
  const problem = lookupProblem(names, types.size, timeout, retries, splitList(servers));
  const submit = (event: Event) => {
    event.preventDefault();
    if (problem !== null || names.length === 0) return;
    const body = {
      domains: splitList(domains),
      recordTypes: RECORD_TYPES.filter((type) => types.has(type)),
      ...options,
      propagationServers: servers.trim() === '' ? undefined : splitList(servers),
      timeout: numberField(timeout),
      maxRetries: numberField(retries),
    };
    void lookup.run(() => call<DnsAnswer>('POST', '/dns-lookup', { json: body }));
  };

  return (
    <>
      <form class="tools-form" onSubmit={submit} noValidate>
        <label for="dns-domains">Domains or IP addresses</label>
        <input
          id="dns-domains"
          autoComplete="off"
          spellcheck={false}
          placeholder="example.com"
          aria-describedby="dns-domains-hint"
          value={domains}
          onInput={(event) => setDomains(event.currentTarget.value)}
        />
        <p class="muted tools-hint" id="dns-domains-hint">
          Up to 10, separated by spaces or commas; an IP address is looked up as PTR.
        </p>
        <fieldset class="tools-checks">
          <legend>Record types</legend>
          {RECORD_TYPES.map((type) => (
            <label key={type} class="tools-check">
              <input type="checkbox" checked={types.has(type)} onChange={() => toggleType(type)} /> {type}
            </label>
          ))}
        </fieldset>
        <fieldset class="tools-checks tools-options">
          <legend>Also</legend>
          {OPTIONS.map((option) => (
            <label key={option.name} class="tools-check">
              <input
                type="checkbox"
                checked={options[option.name]}
                onChange={(event) => setOptions({ ...options, [option.name]: event.currentTarget.checked })}
              />{' '}
              {option.label}
            </label>
          ))}
        </fieldset>
        <details class="tools-advanced">
          <summary>Resolvers and timing</summary>
          <label for="dns-servers">Propagation resolvers</label>
          <input
            id="dns-servers"
            autoComplete="off"
            spellcheck={false}
            placeholder="8.8.8.8, 1.1.1.1"
            aria-describedby="dns-servers-hint"
            value={servers}
            onInput={(event) => setServers(event.currentTarget.value)}
          />
          <p class="muted tools-hint" id="dns-servers-hint">
            Public resolvers to compare when checking propagation; empty: Google, Cloudflare, Quad9, OpenDNS, AdGuard
            and Control D.
          </p>
          <div class="row">
            <div>
              <label for="dns-timeout">Timeout per query (ms)</label>
              <input
                id="dns-timeout"
                inputMode="numeric"
                placeholder="5000"
                value={timeout}
                onInput={(event) => setTimeoutText(event.currentTarget.value)}
              />
            </div>
            <div>
              <label for="dns-retries">Retries</label>
              <input
                id="dns-retries"
                inputMode="numeric"
                placeholder="3"
                value={retries}
                onInput={(event) => setRetries(event.currentTarget.value)}
              />
            </div>
          </div>
        </details>
        {problem === null ? null : (
          <p class="error" role="alert" data-testid="dns-problem">
            {problem}
          </p>
        )}
        <ErrorNote error={readableError(lookup.error)} />
        <div class="actions">
          <button type="submit" class="primary" disabled={lookup.busy || problem !== null || names.length === 0}>
            {lookup.busy ? 'Looking up…' : 'Look up'}
          </button>
          <CostHint credits={5} />
          <span class="muted tools-hint">
            {problem === null
              ? 'A failure on the service’s side (5xx) costs nothing.'
              : 'Nothing is sent (or charged) until the form is right.'}
          </span>
        </div>
        <Charged cost={lookup.cost} balance={lookup.balance} />
      </form>
      {lookup.result === undefined || lookup.error !== undefined ? null : (
        <DnsResult answer={lookup.result} cost={lookup.cost} />
      )}
    </>
  );
}
