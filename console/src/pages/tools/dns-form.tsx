/** POST /dns-lookup (5 credits): domains, record types, the lookups to add, and the resolver settings. */
import { useState } from 'preact/hooks';
import { call } from '../../api.js';
import { Charged, CostHint, ErrorNote } from '../../components/ui.js';
import { usePaidCall } from '../../components/use-paid-call.js';
import { DnsResult } from './dns-result.js';
import { DEFAULT_RECORD_TYPES, RECORD_TYPES } from './dns-types.js';
import type { DnsAnswer, RecordType } from './dns-types.js';
import { readableError } from './readable-error.js';

const OPTIONS = [
  { name: 'checkPropagation', label: 'Check propagation across public resolvers', initial: false },
  { name: 'performReverseLookup', label: 'Reverse lookup (PTR) of the addresses found', initial: true },
  { name: 'enableEnrichment', label: 'E-mail security: MX provider, SPF, DMARC, DKIM and a score', initial: true },
  { name: 'enableSslInspection', label: 'TLS certificate of port 443', initial: true },
  { name: 'includeMetadata', label: 'Query time and record count', initial: false },
] as const;
type OptionName = (typeof OPTIONS)[number]['name'];

/** "a.com, b.com\nc.com" → the names; the service judges each one. */
const splitList = (text: string): string[] => text.split(/[\s,]+/).filter((item) => item !== '');
/** A number field as typed: empty is left out (the service's default), anything else sent for the service to judge. */
const numberField = (text: string): number | string | undefined => (text.trim() === '' ? undefined : Number.isFinite(Number(text)) ? Number(text) : text);

export function DnsLookup() {
  const [domains, setDomains] = useState('');
  const [types, setTypes] = useState<ReadonlySet<RecordType>>(new Set(DEFAULT_RECORD_TYPES));
  const [options, setOptions] = useState<Record<OptionName, boolean>>(
    () => Object.fromEntries(OPTIONS.map((option) => [option.name, option.initial])) as Record<OptionName, boolean>,
  );
  const [servers, setServers] = useState('');
  const [timeout, setTimeoutText] = useState('');
  const [retries, setRetries] = useState('');
  const lookup = usePaidCall<DnsAnswer>();

  const toggleType = (type: RecordType) => {
    const next = new Set(types);
    if (next.has(type)) next.delete(type);
    else next.add(type);
    setTypes(next);
  };

  const submit = (event: Event) => {
    event.preventDefault();
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
      <form class="tools-form" onSubmit={submit}>
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
            Public resolvers to compare when checking propagation; empty: Google, Cloudflare, Quad9, OpenDNS, AdGuard and Control D.
          </p>
          <div class="row">
            <div>
              <label for="dns-timeout">Timeout per query (ms)</label>
              <input id="dns-timeout" inputMode="numeric" placeholder="5000" value={timeout} onInput={(event) => setTimeoutText(event.currentTarget.value)} />
            </div>
            <div>
              <label for="dns-retries">Retries</label>
              <input id="dns-retries" inputMode="numeric" placeholder="3" value={retries} onInput={(event) => setRetries(event.currentTarget.value)} />
            </div>
          </div>
        </details>
        <ErrorNote error={readableError(lookup.error)} />
        <div class="actions">
          <button type="submit" class="primary" disabled={lookup.busy}>
            {lookup.busy ? 'Looking up…' : 'Look up'}
          </button>
          <CostHint credits={5} />
          <span class="muted tools-hint">A failure on the service’s side (5xx) costs nothing.</span>
        </div>
        <Charged cost={lookup.cost} balance={lookup.balance} />
      </form>
      {lookup.result === undefined || lookup.error !== undefined ? null : <DnsResult answer={lookup.result} />}
    </>
  );
}
