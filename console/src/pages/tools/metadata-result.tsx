/**
 * A page's metadata as panels: what it is, how it was fetched, its summary, links and contacts; raw JSON.
 * Images are never loaded: their URLs are third-party addresses (and the console's CSP allows only its own images),
 * so they show as links.
 */
import type { ComponentChildren } from 'preact';
import { httpHref } from '../../components/http-href.js';
import { JsonView } from '../../components/ui.js';
import { hostOf, imageUrl, text } from './metadata-types.js';
import type { MetadataAnswer } from './metadata-types.js';

function Fact({ term, wide, children }: { term: string; wide?: boolean; children: ComponentChildren }) {
  return (
    <div class={wide ? 'tools-fact-wide' : undefined}>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** A link out of the console: a new tab, no referrer, no opener; a URL that is not http(s) shows as text only. */
function Outside({ url }: { url: string }) {
  if (httpHref(url) === undefined) return <span class="tools-url">{url}</span>;
  return (
    <a href={httpHref(url)} target="_blank" rel="noopener noreferrer nofollow" class="tools-url">
      {url}
    </a>
  );
}

export function MetadataResult({ answer }: { answer: MetadataAnswer }) {
  const data = answer.data ?? {};
  const seo = data.seo ?? {};
  const technical = data.technical ?? {};
  const og = data.openGraph ?? {};
  const title = text(seo.title) ?? text(og.title);
  const description = text(seo.description) ?? text(og.description);
  const site = text(og.siteName) ?? hostOf(technical.finalUrl);
  const image = imageUrl(og.image) ?? imageUrl(data.twitterCard?.image);
  return (
    <section class="tools-result" aria-labelledby="metadata-result-heading">
      <h3 id="metadata-result-heading">Result</h3>
      <article class="panel" aria-label="Page">
        <p class="muted tools-site">{site ?? 'Page'}</p>
        <h4 class="tools-title" data-testid="metadata-title">
          {title ?? <span class="muted">(no title)</span>}
        </h4>
        {description === undefined ? null : <p>{description}</p>}
        <dl class="tools-facts">
          {technical.finalUrl === undefined ? null : (
            <Fact term="Address" wide>
              <Outside url={technical.finalUrl} />
            </Fact>
          )}
          {text(seo.canonical) === undefined ? null : <Fact term="Canonical">{seo.canonical}</Fact>}
          {text(seo.language) === undefined ? null : <Fact term="Language">{seo.language}</Fact>}
          {text(seo.author) === undefined ? null : <Fact term="Author">{seo.author}</Fact>}
          {seo.keywords === undefined || seo.keywords.length === 0 ? null : (
            <Fact term="Keywords">{seo.keywords.join(', ')}</Fact>
          )}
          {image === undefined ? null : (
            <Fact term="Preview image (not loaded)" wide>
              <Outside url={image} />
            </Fact>
          )}
        </dl>
      </article>
      <Summary ai={data.ai} />
      <div class="grid">
        <article class="panel" aria-label="Fetch">
          <h4>Fetch</h4>
          <dl class="tools-facts">
            <Fact term="Status">{technical.statusCode ?? '—'}</Fact>
            <Fact term="Content type">{technical.contentType ?? '—'}</Fact>
            <Fact term="Response time">
              {technical.responseTime === undefined ? '—' : `${technical.responseTime} ms`}
            </Fact>
            <Fact term="Redirects">{technical.redirects ?? 0}</Fact>
            <Fact term="HTTPS">{technical.isSecure ? 'yes' : 'no'}</Fact>
            <Fact term="robots.txt allows">{technical.robotsAllowed === false ? 'no' : 'yes'}</Fact>
          </dl>
        </article>
        <LinksAndContacts data={data} />
        <Document document={data.document} />
      </div>
      <JsonView value={answer} />
    </section>
  );
}

function Summary({ ai }: { ai: NonNullable<MetadataAnswer['data']>['ai'] }) {
  if (ai === undefined) return null;
  const summary = ai.summary ?? {};
  const body = text(summary.short) ?? text(summary.medium) ?? text(summary.long);
  const facts = Object.entries(ai.keyFacts ?? {});
  return (
    <article class="panel" aria-label="Summary">
      <h4>Summary</h4>
      {body === undefined ? <p class="muted">No summary.</p> : <p data-testid="metadata-summary">{body}</p>}
      {facts.length === 0 ? null : (
        <dl class="tools-facts">
          {facts.map(([name, value]) => (
            <Fact key={name} term={name}>
              {typeof value === 'string' ? value : JSON.stringify(value)}
            </Fact>
          ))}
        </dl>
      )}
      <p class="muted tools-hint">
        {ai.model ?? ''}
        {summary.truncated ? ' · from the start of the page only' : ''}
        {ai.warning === undefined ? '' : ` · ${ai.warning}`}
      </p>
    </article>
  );
}

function LinksAndContacts({ data }: { data: NonNullable<MetadataAnswer['data']> }) {
  const domains = data.links?.external?.domains ?? [];
  const profiles = Object.entries(data.social ?? {}).filter(
    ([name, value]) => name !== 'favicon' && typeof value === 'string' && value !== '',
  );
  if (data.links === undefined && profiles.length === 0 && data.contact?.emails === undefined) return null;
  return (
    <article class="panel" aria-label="Links and contacts">
      <h4>Links and contacts</h4>
      <dl class="tools-facts">
        <Fact term="Internal links">{data.links?.internal?.total ?? 0}</Fact>
        <Fact term="External links">{data.links?.external?.total ?? 0}</Fact>
        {domains.length === 0 ? null : (
          <Fact term="External sites">
            {domains.slice(0, 8).join(', ')}
            {domains.length > 8 ? ` and ${domains.length - 8} more` : ''}
          </Fact>
        )}
        {(data.contact?.emails ?? []).length === 0 ? null : (
          <Fact term="E-mail">{(data.contact?.emails ?? []).join(', ')}</Fact>
        )}
        {(data.contact?.phones ?? []).length === 0 ? null : (
          <Fact term="Phone">{(data.contact?.phones ?? []).join(', ')}</Fact>
        )}
        {profiles.map(([name, value]) => (
          <Fact key={name} term={name}>
            <Outside url={String(value)} />
          </Fact>
        ))}
      </dl>
    </article>
  );
}

function Document({ document }: { document: NonNullable<MetadataAnswer['data']>['document'] }) {
  if (document === undefined) return null;
  return (
    <article class="panel" aria-label="Document">
      <h4>Document</h4>
      <dl class="tools-facts">
        <Fact term="Kind">{document.kind ?? '—'}</Fact>
        <Fact term="Type">{document.mimeType ?? '—'}</Fact>
        {document.size === undefined || document.size === null ? null : (
          <Fact term="Size">{document.size.toLocaleString()} bytes</Fact>
        )}
        {document.width === undefined ? null : (
          <Fact term="Dimensions">{`${document.width} × ${document.height ?? '?'}`}</Fact>
        )}
        {document.pages === undefined ? null : <Fact term="Pages">{document.pages}</Fact>}
      </dl>
    </article>
  );
}
