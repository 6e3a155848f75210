/**
 * The webhooks section: `#/webhooks` list, `#/webhooks/new`, `#/webhooks/<id>` (detail and edit),
 * `#/webhooks/<id>/deliveries` and `#/webhooks/<id>/deliveries/<deliveryId>`.
 */
import type { PageProps } from '../app.js';
import { DeliveryDetail, Deliveries } from './webhooks/deliveries.js';
import { NewWebhook } from './webhooks/new-webhook.js';
import { WebhookDetail } from './webhooks/webhook-detail.js';
import { WebhookList } from './webhooks/webhook-list.js';
import './webhooks/webhooks.css';

export function Webhooks({ route }: PageProps) {
  const [webhookId, sub, deliveryId] = route;
  if (webhookId === undefined) return <WebhookList />;
  if (webhookId === 'new' && sub === undefined) return <NewWebhook />;
  // Keyed by the route, so each view starts fresh (and its heading takes focus) when the hash changes.
  if (sub === 'deliveries') {
    return deliveryId === undefined ? (
      <Deliveries key={webhookId} webhookId={webhookId} />
    ) : (
      <DeliveryDetail key={`${webhookId}/${deliveryId}`} webhookId={webhookId} deliveryId={deliveryId} />
    );
  }
  return <WebhookDetail key={webhookId} webhookId={webhookId} />;
}
