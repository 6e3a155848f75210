/** Small views of a webhook used by the list and the detail page: mode, target, last run, next run. */
import { call } from '../../api.js';
import { formatInstant, relativeTime } from '../../components/ui.js';
import { useLoad } from '../../use-load.js';
import type { DeliveryList, WebhookView } from './types.js';

export const modeOf = (view: WebhookView): 'mailbox' | 'scheduled' =>
  view.schedule === undefined ? 'mailbox' : 'scheduled';

/** "slack", "custom", "raw e-mail", or the cron and its zone. */
export function WhatItSends({ view }: { view: WebhookView }) {
  if (view.schedule !== undefined) {
    return (
      <span>
        <code>{view.schedule.cron}</code> <span class="muted">{view.schedule.timezone}</span>
      </span>
    );
  }
  return (
    <span>
      {view.format === undefined || view.format === '' ? <span class="muted">raw e-mail JSON</span> : view.format}
    </span>
  );
}

/** `loadedAt`: when the view was read; a newer read reloads a mailbox's last delivery too. */
export function LastRun({ view, loadedAt }: { view: WebhookView; loadedAt?: unknown }) {
  const schedule = view.schedule;
  if (schedule === undefined) return <LastDelivery webhookId={view.webhookId} loadedAt={loadedAt} />;
  if (schedule.lastStatus === undefined) return <span class="muted">no run yet</span>;
  const ok = schedule.lastStatus === 'success';
  return (
    <span>
      <span class={`badge ${ok ? 'ok' : 'error'}`}>{schedule.lastStatus}</span>
      {schedule.lastRunAt === undefined ? null : (
        <>
          {' '}
          <time dateTime={schedule.lastRunAt} title={schedule.lastRunAt}>
            {relativeTime(schedule.lastRunAt)}
          </time>
        </>
      )}
      {schedule.lastError === undefined ? null : <span class="last-error">{schedule.lastError}</span>}
    </span>
  );
}

export function NextRun({ view }: { view: WebhookView }) {
  const schedule = view.schedule;
  if (schedule === undefined) return <span class="muted">on mail</span>;
  if (!schedule.active) return <span class="muted">paused</span>;
  if (schedule.nextRunAt === undefined) return <span class="muted">—</span>;
  return (
    <time dateTime={schedule.nextRunAt} title={formatInstant(schedule.nextRunAt)}>
      {relativeTime(schedule.nextRunAt)}
    </time>
  );
}

/** A mailbox webhook's last delivery, from its history (free). */
function LastDelivery({ webhookId, loadedAt }: { webhookId: string; loadedAt: unknown }) {
  const loaded = useLoad(
    () => call<DeliveryList>('GET', `/webhook/${encodeURIComponent(webhookId)}/deliveries`, { query: { n: 1 } }),
    [webhookId, loadedAt],
  );
  const last = loaded.data?.data.deliveries[0];
  if (loaded.error !== undefined) return <span class="muted">unknown</span>;
  if (last === undefined) return <span class="muted">{loaded.loading ? '…' : 'no delivery yet'}</span>;
  return (
    <span>
      <span class={`badge ${last.status === 'success' ? 'ok' : last.status === 'failure' ? 'error' : ''}`}>
        {last.status}
      </span>{' '}
      <time dateTime={last.createdAt} title={last.createdAt}>
        {relativeTime(last.createdAt)}
      </time>
      {last.lastError === null ? null : <span class="last-error">{last.lastError}</span>}
    </span>
  );
}
