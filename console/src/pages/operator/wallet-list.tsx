/** Every wallet, a page at a time, sorted by last use, balance or creation (newest or highest first). */
import { useState } from 'preact/hooks';
import { href } from '../../router.js';
import { ErrorNote, Loading } from '../../components/ui.js';
import { usePagedList } from '../../components/use-paged-list.js';
import { operatorApi, shortHash, WALLET_SORTS } from './operator-api.js';
import type { WalletSort } from './operator-api.js';
import { When } from './when.js';

const PER_PAGE = 20;

export function WalletList() {
  const [sort, setSort] = useState<WalletSort>('lastUsed');
  const list = usePagedList((cursor) => operatorApi.wallets(sort, cursor, PER_PAGE), [sort]);
  const wallets = { ...list, items: list.items ?? [] };
  return (
    <section class="panel" aria-labelledby="wallets-title">
      <h2 id="wallets-title">Wallets</h2>
      <div class="row operator-sort">
        <div>
          <label for="wallet-sort">Sort by</label>
          <select id="wallet-sort" value={sort} onChange={(event) => setSort(event.currentTarget.value as WalletSort)}>
            {WALLET_SORTS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label} (newest or highest first)
              </option>
            ))}
          </select>
        </div>
      </div>
      <ErrorNote error={wallets.error} />
      <div class="table-scroll">
        <table>
          <caption class="visually-hidden">
            Wallets, sorted by {WALLET_SORTS.find((option) => option.value === sort)?.label.toLowerCase()}
          </caption>
          <thead>
            <tr>
              <th scope="col">Wallet</th>
              <th scope="col" class="num">
                Balance
              </th>
              <th
                scope="col"
                title="Kept to the hour: a wallet's first call in an hour records it, later ones that hour do not"
              >
                Last used <span class="muted small">(to the hour)</span>
              </th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {wallets.items.map((wallet) => (
              <tr key={wallet.hash}>
                <td>
                  <a href={href('operator', wallet.hash)} title={wallet.hash}>
                    <code>{shortHash(wallet.hash)}…</code>
                  </a>
                </td>
                <td class="num" data-testid="wallet-balance">
                  {wallet.wallet.toLocaleString()}
                </td>
                <td>
                  <When iso={wallet.lastUsed} />
                </td>
                <td>
                  <When iso={wallet.created} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {!wallets.loading && wallets.error === undefined && wallets.items.length === 0 ? (
        <p class="muted">No wallets yet.</p>
      ) : null}
      <Loading when={wallets.loading} />
      <p class="muted small">
        Last used is recorded at most once an hour per wallet (the first call of the hour), so it can trail the calls by
        up to an hour; the wallet’s call log has every call to the second.
      </p>
      <div class="actions">
        {wallets.more ? (
          <button type="button" disabled={wallets.loading} onClick={wallets.loadMore}>
            More
          </button>
        ) : null}
        <span class="muted" role="status">
          {wallets.items.length === 0
            ? ''
            : `${wallets.items.length} wallet${wallets.items.length === 1 ? '' : 's'} shown${wallets.more ? '' : ', all of them'}.`}
        </span>
      </div>
    </section>
  );
}
