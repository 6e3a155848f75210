/**
 * `#/webhooks/<id>/deliveries[/<deliveryId>]`: a webhook's deliveries of the last 7 days and their attempts (free),
 * and a redelivery of one (costs what the delivery cost; `410 Delivery expired` once its body is gone).
 */
import { useState } from 'preact/hooks';
import { call } from '../../api.js';
import {
  Charged,
  CostHint,
  ErrorNote,
  JsonView,
  Loading,
  PageTitle,
  formatInstant,
  relativeTime,
} from '../../components/ui.js';
import { href } from '../../router.js';
import { useLoad } from '../../use-load.js';
import {
  redeliveryCost,
  type Attempt,
  type DeliveryDetail as Detail,
  type DeliveryList,
  type DeliveryStatus,
  type RedeliveryResult,
} from './types.js';
import { usePaidCall } from '../../components/use-paid-call.js';

const base = (webhookId: string): string => `/webhook/${encodeURIComponent(webhookId)}/deliveries`;
const STATUSES: readonly DeliveryStatus[] = ['success', 'failure', 'pending'];
/** The list refreshes while open: retries land on their own. */
const REFRESH_MS = 10_000;

export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge ${status === 'success' ? 'ok' : status === 'failure' ? 'error' : ''}`}>{status}</span>;
}

function When({ iso }: { iso: string | null }) {
  if (iso === null) return <span class="muted">—</span>;
  return (
    <time dateTime={iso} title={formatInstant(iso)}>
      {relativeTime(iso)}
    </time>
  );
}

export function Deliveries({ webhookId }: { webhookId: string }) {
  const [status, setStatus] = useState('');
  const loaded = useLoad(
    () => call<DeliveryList>('GET', base(webhookId), { query: { n: 50, status } }),
    [webhookId, status],
    REFRESH_MS,
  );
  const deliveries = loaded.data?.data.deliveries;
  return (
    <>
      <PageTitle title={`Deliveries of ${webhookId}`}>Deliveries of {webhookId}</PageTitle>
      <p>
        <a href={href('webhooks', webhookId)}>← Webhook {webhookId}</a>
      </p>
      <div class="row filters">
        <div>
          <label for="delivery-status">Status</label>
          <select id="delivery-status" value={status} onChange={(event) => setStatus(event.currentTarget.value)}>
            <option value="">All</option>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <button type="button" onClick={loaded.reload} disabled={loaded.loading}>
          Refresh
        </button>
        <CostHint credits={0} />
      </div>
      <ErrorNote error={loaded.error} />
      <Loading when={loaded.loading && deliveries === undefined} />
      {deliveries === undefined ? null : deliveries.length === 0 ? (
        <p class="panel">
          No deliveries in the last 7 days{status === '' ? '' : ` with status ${status}`}. Send a test from the
          webhook’s page.
        </p>
      ) : (
        <div class="table-scroll">
          <table data-testid="delivery-list">
            <caption class="visually-hidden">Deliveries, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Delivery</th>
                <th scope="col">Trigger</th>
                <th scope="col">Created</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">
                  Attempts
                </th>
                <th scope="col">Last answer</th>
                <th scope="col">Next retry</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.id}>
                  <th scope="row">
                    <a href={href('webhooks', webhookId, 'deliveries', delivery.id)}>
                      <code>{delivery.id}</code>
                    </a>
                  </th>
                  <td>{delivery.trigger}</td>
                  <td>
                    <When iso={delivery.createdAt} />
                  </td>
                  <td>
                    <StatusBadge status={delivery.status} />
                  </td>
                  <td class="num">{delivery.attempts}</td>
                  <td>
                    {delivery.lastStatusCode === null ? null : <code>HTTP {delivery.lastStatusCode}</code>}
                    {delivery.lastError === null || delivery.lastError === `HTTP ${delivery.lastStatusCode}` ? null : (
                      <span class="last-error">{delivery.lastError}</span>
                    )}
                  </td>
                  <td>
                    <When iso={delivery.nextAttemptAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

export function DeliveryDetail({ webhookId, deliveryId }: { webhookId: string; deliveryId: string }) {
  const path = `${base(webhookId)}/${encodeURIComponent(deliveryId)}`;
  const loaded = useLoad(() => call<Detail>('GET', path), [path]);
  const delivery = loaded.data?.data;
  return (
    <>
      <PageTitle title={`Delivery ${deliveryId}`}>Delivery {deliveryId}</PageTitle>
      <p>
        <a href={href('webhooks', webhookId, 'deliveries')}>← Deliveries of {webhookId}</a>
      </p>
      <ErrorNote error={loaded.error} />
      <Loading when={loaded.loading && delivery === undefined} />
      {delivery === undefined ? null : (
        <>
          <section class="panel" aria-labelledby="delivery-heading">
            <h2 id="delivery-heading" class="visually-hidden">
              Summary
            </h2>
            <dl class="facts">
              <dt>Status</dt>
              <dd>
                <StatusBadge status={delivery.status} />
              </dd>
              <dt>Trigger</dt>
              <dd>{delivery.trigger}</dd>
              <dt>Created</dt>
              <dd>
                <When iso={delivery.createdAt} />
              </dd>
              <dt>Next retry</dt>
              <dd>
                {delivery.nextAttemptAt === null ? (
                  <span class="muted">none planned</span>
                ) : (
                  <When iso={delivery.nextAttemptAt} />
                )}
              </dd>
            </dl>
            <Redeliver
              path={`${path}/redeliver`}
              trigger={delivery.trigger}
              hasBody={delivery.body !== null}
              onDone={loaded.reload}
            />
          </section>
          <h2>Attempts</h2>
          <Attempts attempts={delivery.attempts} />
          <h2>Body sent</h2>
          {delivery.body === null ? (
            <p class="muted">Not kept (mail content is dropped after delivery; bodies over 1 MiB are not stored).</p>
          ) : (
            <Body text={delivery.body} />
          )}
        </>
      )}
    </>
  );
}

function Body({ text }: { text: string }) {
  let pretty = text;
  try {
    pretty = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // shown as sent
  }
  return (
    <pre tabIndex={0} aria-label="Body sent">
      {pretty}
    </pre>
  );
}

function Attempts({ attempts }: { attempts: readonly Attempt[] }) {
  if (attempts.length === 0) return <p class="muted">No attempt yet.</p>;
  return (
    <div class="table-scroll">
      <table data-testid="attempts">
        <caption class="visually-hidden">Attempts, oldest first</caption>
        <thead>
          <tr>
            <th scope="col" class="num">
              #
            </th>
            <th scope="col">Trigger</th>
            <th scope="col">At</th>
            <th scope="col">Status</th>
            <th scope="col" class="num">
              Latency
            </th>
            <th scope="col">Error</th>
            <th scope="col">Response (first 1 KiB)</th>
          </tr>
        </thead>
        <tbody>
          {attempts.map((attempt) => (
            <tr key={attempt.attempt}>
              <td class="num">{attempt.attempt}</td>
              <td>{attempt.trigger}</td>
              <td>
                <When iso={attempt.at} />
              </td>
              <td>
                {attempt.statusCode === null ? (
                  <span class="muted">no answer</span>
                ) : (
                  <span class={`badge ${attempt.statusCode < 300 ? 'ok' : 'error'}`}>HTTP {attempt.statusCode}</span>
                )}
              </td>
              <td class="num">{attempt.ms} ms</td>
              <td>
                {attempt.error === null ? (
                  <span class="muted">—</span>
                ) : (
                  <span class="error-text">{attempt.error}</span>
                )}
              </td>
              <td>
                {attempt.responseBody === null || attempt.responseBody === '' ? (
                  <span class="muted">—</span>
                ) : (
                  <code class="excerpt">{attempt.responseBody}</code>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Redeliver({
  path,
  trigger,
  hasBody,
  onDone,
}: {
  path: string;
  trigger: string;
  hasBody: boolean;
  onDone: () => void;
}) {
  const redeliver = usePaidCall<RedeliveryResult>({ clearWhileBusy: true });
  const cost = redeliveryCost(trigger);
  const result = redeliver.result;
  const run = async () => {
    await redeliver.run(() => call<RedeliveryResult>('POST', path));
    onDone();
  };
  return (
    <div class="action">
      <div class="actions">
        <button
          type="button"
          disabled={redeliver.busy || !hasBody}
          onClick={() => void run()}
          aria-describedby="redeliver-cost"
        >
          {redeliver.busy ? 'Sending…' : 'Redeliver'}
        </button>
        <span id="redeliver-cost">
          {cost === undefined ? (
            <span class="cost">Costs what the delivery cost: 2 credits, 5 with attachments</span>
          ) : (
            <CostHint credits={cost} />
          )}
        </span>
        {hasBody ? null : <span class="muted">The body is no longer kept: it cannot be sent again.</span>}
      </div>
      <div role="status" aria-live="polite" data-testid="redeliver-result">
        {result === undefined ? null : (
          <p class={result.success ? 'ok' : 'error'}>
            Attempt {result.attempt}: {result.message}
            {result.statusCode === null ? '' : ` (HTTP ${result.statusCode})`}.
          </p>
        )}
      </div>
      <ErrorNote error={redeliver.error} />
      <Charged cost={redeliver.cost} balance={redeliver.balance} />
      {result === undefined ? null : <JsonView value={result} />}
    </div>
  );
}
