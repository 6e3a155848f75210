/** The findings beside a domain's records: e-mail security (enrichment), the TLS certificate, propagation per resolver. */
import type { ComponentChildren } from 'preact';
import { formatInstant } from '../../components/ui.js';
import { recordText } from './dns-types.js';
import type { LookupResult, PropagationResult } from './dns-types.js';

const yesNo = (value: boolean | undefined): string => (value === undefined ? '—' : value ? 'yes' : 'no');

function Facts({ children }: { children: ComponentChildren }) {
  return <dl class="tools-facts">{children}</dl>;
}

function Fact({ term, children }: { term: string; children: ComponentChildren }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export function EmailSecurity({ lookup }: { lookup: LookupResult }) {
  if (lookup.email_security_score === undefined && lookup.spf_valid === undefined && lookup.mx_provider === undefined)
    return null;
  return (
    <section class="tools-finding" aria-label={`E-mail security of ${lookup.domain}`}>
      <h5>E-mail security</h5>
      <Facts>
        {lookup.email_security_score === undefined ? null : (
          <Fact term="Score">
            <span class="tools-score" data-testid="email-score">
              {lookup.email_security_score}
            </span>{' '}
            / 100
          </Fact>
        )}
        <Fact term="Mail provider">{lookup.mx_provider ?? '—'}</Fact>
        <Fact term="SPF valid">{yesNo(lookup.spf_valid)}</Fact>
        <Fact term="SPF strict">{yesNo(lookup.spf_strict)}</Fact>
        <Fact term="DMARC policy">{lookup.dmarc_policy ?? '—'}</Fact>
        <Fact term="DKIM found">{yesNo(lookup.has_dkim)}</Fact>
      </Facts>
      <Sentences title="Warnings" items={lookup.warnings} />
      <Sentences title="Recommendations" items={lookup.recommendations} />
    </section>
  );
}

function Sentences({ title, items }: { title: string; items: readonly string[] | undefined }) {
  if (items === undefined || items.length === 0) return null;
  return (
    <>
      <p class="tools-list-title">{title}</p>
      <ul>
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </>
  );
}

export function TlsCertificate({ lookup }: { lookup: LookupResult }) {
  if (lookup.ssl_certificate_expires_at === undefined && lookup.ssl_error === undefined) return null;
  return (
    <section class="tools-finding" aria-label={`TLS certificate of ${lookup.domain}`}>
      <h5>TLS certificate</h5>
      {lookup.ssl_error === undefined ? null : <p>Not read: {lookup.ssl_error}</p>}
      {lookup.ssl_certificate_expires_at === undefined ? null : (
        <Facts>
          <Fact term="Expires">
            <time dateTime={lookup.ssl_certificate_expires_at}>{formatInstant(lookup.ssl_certificate_expires_at)}</time>
            {lookup.ssl_days_until_expiry === undefined ? null : ` (in ${lookup.ssl_days_until_expiry} days)`}
          </Fact>
          <Fact term="Issuer">{lookup.ssl_issuer ?? '—'}</Fact>
          <Fact term="Chain valid">{yesNo(lookup.ssl_chain_valid)}</Fact>
          <Fact term="Names">{(lookup.ssl_subject_alt_names ?? []).join(', ') || '—'}</Fact>
        </Facts>
      )}
    </section>
  );
}

export function Propagation({ result }: { result: PropagationResult }) {
  const servers = Object.entries(result.servers);
  return (
    <section class="tools-finding" aria-label={`Propagation of ${result.recordType}`}>
      <h5>
        Propagation of {result.recordType}: {Math.round(result.consistencyPercentage)} % consistent{' '}
        <span class={result.isPropagated ? 'badge ok' : 'badge error'}>
          {result.isPropagated ? 'propagated' : 'not everywhere yet'}
        </span>
      </h5>
      <div class="tools-scroll">
        <table aria-label={`${result.recordType} answers per resolver`}>
          <thead>
            <tr>
              <th scope="col">Resolver</th>
              <th scope="col">Where</th>
              <th scope="col">Answer</th>
              <th scope="col">Same as lookup</th>
              <th scope="col" class="num">
                Time (ms)
              </th>
            </tr>
          </thead>
          <tbody>
            {servers.map(([server, answer]) => (
              <tr key={server}>
                <td>{server}</td>
                <td>{answer.location ?? '—'}</td>
                <td class="tools-value">
                  {answer.error ??
                    (answer.records.map((record) => recordText(result.recordType, record)).join('; ') || '—')}
                </td>
                <td>{yesNo(answer.matches)}</td>
                <td class="num">{answer.responseTime}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
