/** A DNS lookup's answer as panels: per domain its records by type, failures, reverse names and findings; raw JSON. */
import { JsonView } from '../../components/ui.js';
import { EmailSecurity, Propagation, TlsCertificate } from './dns-findings.js';
import { cellText, columnsOf, RECORD_TYPES, recordsOf } from './dns-types.js';
import type { DnsAnswer, DnsRecord, DomainResult, RecordType } from './dns-types.js';

/** `cost`: what the lookup was charged (x-cost), said beside a failure so nobody wonders. */
export function DnsResult({ answer, cost }: { answer: DnsAnswer; cost: number | undefined }) {
  const { summary } = answer;
  return (
    <section class="tools-result" aria-labelledby="dns-result-heading">
      <h3 id="dns-result-heading">Result</h3>
      <p role="status" data-testid="dns-summary" class={summary.failedLookups > 0 ? 'error' : undefined}>
        {summary.successfulLookups} of {summary.totalDomains} lookup{summary.totalDomains === 1 ? '' : 's'} succeeded
        {summary.failedLookups > 0 ? `, ${summary.failedLookups} failed` : ''}; types {summary.recordTypes.join(', ')}
        {summary.propagationCheckEnabled ? '; propagation checked' : ''}.
      </p>
      {answer.results.map((result) => (
        <DomainPanel key={result.domain} result={result} cost={cost} />
      ))}
      <JsonView value={answer} />
    </section>
  );
}

/** Answers that say the name has nothing (a real answer); every other code is a failure to get one. */
const NEGATIVE_ANSWERS = new Set(['NXDOMAIN', 'NODATA']);

function DomainPanel({ result, cost }: { result: DomainResult; cost: number | undefined }) {
  const lookup = result.lookupResult;
  const headingId = `dns-domain-${result.domain.replace(/[^A-Za-z0-9]/g, '-')}`;
  // The schema names every type the service answers (the answer is serialised through it: no other type reaches here).
  const present = RECORD_TYPES.filter((type) => recordsOf(lookup, type).length > 0);
  const failures = Object.entries(lookup.errors ?? {});
  return (
    <article class="panel tools-domain" aria-labelledby={headingId}>
      <h4 id={headingId} class="tools-domain-name">
        {result.domain}
        {lookup.domain !== result.domain ? <span class="muted"> ({lookup.domain})</span> : null}
      </h4>
      {present.length > 0 ? null : failures.length === 0 ? (
        <p class="muted">No records found.</p>
      ) : failures.every(([, cause]) => NEGATIVE_ANSWERS.has(cause)) ? (
        <p class="muted">
          No such records: the name’s servers answered {[...new Set(failures.map(([, cause]) => cause))].join(', ')}.
        </p>
      ) : (
        <LookupFailed failures={failures} cost={cost} />
      )}
      <div class="tools-record-grid">
        {present.map((type) => (
          <RecordTable key={type} domain={result.domain} type={type} records={recordsOf(lookup, type)} />
        ))}
      </div>
      {failures.length === 0 ? null : (
        <p class="tools-failures">
          <strong>Not answered:</strong> {failures.map(([type, cause]) => `${type} ${cause}`).join(' · ')}
        </p>
      )}
      {lookup.reverseLookup === undefined ? null : (
        <p>
          <strong>Reverse names:</strong>{' '}
          {lookup.reverseLookup.hostnames.length === 0 ? (
            <span class="muted">none</span>
          ) : (
            lookup.reverseLookup.hostnames.join(', ')
          )}
          <span class="muted"> ({lookup.reverseLookup.responseTime} ms)</span>
        </p>
      )}
      <EmailSecurity lookup={lookup} />
      <TlsCertificate lookup={lookup} />
      {(result.propagationResults ?? []).map((propagation) => (
        <Propagation key={propagation.recordType} result={propagation} />
      ))}
      {lookup.metadata === undefined ? null : (
        <p class="muted">
          {lookup.metadata.totalRecords} records in {lookup.metadata.queryTime} ms.
        </p>
      )}
    </article>
  );
}

/** Nothing answered: a failure, said as one (what failed, and what it cost), never as an empty result. */
function LookupFailed({
  failures,
  cost,
}: {
  failures: ReadonlyArray<readonly [string, string]>;
  cost: number | undefined;
}) {
  const causes = [...new Set(failures.map(([, cause]) => cause))];
  const unreachable = causes.every((cause) => cause === 'UNREACHABLE' || cause === 'TIMEOUT');
  return (
    <div class="tools-failed" role="alert" data-testid="dns-failed">
      <p>
        <strong>Lookup failed:</strong>{' '}
        {unreachable
          ? `the resolver did not answer (${causes.join(', ')}): no record type could be read. The name may exist; ask again later.`
          : `no record type was answered (${causes.join(', ')}).`}
      </p>
      <p class="small">
        {cost === undefined
          ? 'The service charges a lookup it ran, answered or not.'
          : cost === 0
            ? 'Not charged.'
            : `Charged ${cost} credit${cost === 1 ? '' : 's'}: the service charges a lookup it ran, answered or not (only its own 5xx failures are free).`}
      </p>
    </div>
  );
}

function RecordTable({ domain, type, records }: { domain: string; type: RecordType; records: readonly DnsRecord[] }) {
  const columns = columnsOf(type);
  return (
    <div class={columns.length > 4 ? 'tools-scroll tools-record-wide' : 'tools-scroll'}>
      <table class="tools-records" aria-label={`${type} records of ${domain}`}>
        <caption>
          {type} <span class="muted">({records.length})</span>
        </caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.label} scope="col" class={column.numeric ? 'num' : undefined}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {records.map((record, index) => (
            <tr key={index}>
              {columns.map((column) => (
                <td key={column.label} class={column.numeric ? 'num' : 'tools-value'}>
                  {cellText(record, column.field)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
