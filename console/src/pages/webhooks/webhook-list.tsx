/** `#/webhooks`: every webhook of the wallet (GET /webhook, 1 credit), with what it sends, its last and next run. */
import { call } from '../../api.js';
import { Charged, CostHint, ErrorNote, Loading, PageTitle } from '../../components/ui.js';
import { href } from '../../router.js';
import { useLoad } from '../../use-load.js';
import type { Answer } from '../../api.js';
import { LastRun, NextRun, WhatItSends, modeOf } from './webhook-status.js';
import { WEBHOOK_CALL_COST, type WebhookList as List } from './types.js';

export function WebhookList() {
  const loaded = useLoad<Answer<List>>(() => call<List>('GET', '/webhook'), []);
  const webhooks = loaded.data?.data.webhooks;
  return (
    <>
      <PageTitle title="Webhooks">Webhooks</PageTitle>
      <div class="actions list-actions">
        <a class="button primary" href={href('webhooks', 'new')}>
          New webhook
        </a>
        <button type="button" onClick={loaded.reload} disabled={loaded.loading}>
          Refresh
        </button>
        <CostHint credits={WEBHOOK_CALL_COST} />
      </div>
      <ErrorNote error={loaded.error} />
      <Loading when={loaded.loading && loaded.data === undefined} />
      {webhooks === undefined ? null : webhooks.length === 0 ? (
        <div class="panel">
          <p>No webhooks yet.</p>
          <p class="muted">
            A mailbox webhook gets an e-mail address: mail sent there is POSTed to your URL (2 credits, 5 with
            attachments). A scheduled webhook calls your URL on a cron schedule (2 credits a run).
          </p>
        </div>
      ) : (
        <div class="table-scroll">
          <table data-testid="webhook-list">
            <caption class="visually-hidden">Your webhooks</caption>
            <thead>
              <tr>
                <th scope="col">ID</th>
                <th scope="col">Mode</th>
                <th scope="col">URL</th>
                <th scope="col">Format or schedule</th>
                <th scope="col">Last run</th>
                <th scope="col">Next run</th>
              </tr>
            </thead>
            <tbody>
              {webhooks.map((view) => (
                <tr key={view.webhookId}>
                  <th scope="row">
                    <a href={href('webhooks', view.webhookId)}>{view.webhookId}</a>
                  </th>
                  <td>{modeOf(view)}</td>
                  <td class="url">{view.webhook}</td>
                  <td>
                    <WhatItSends view={view} />
                  </td>
                  <td>
                    <LastRun view={view} loadedAt={loaded.data} />
                  </td>
                  <td>
                    <NextRun view={view} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p class="muted small">Open a webhook to see and change it ({WEBHOOK_CALL_COST} credit).</p>
        </div>
      )}
      {loaded.data === undefined ? null : <Charged cost={loaded.data.cost} balance={loaded.data.balance} />}
    </>
  );
}
