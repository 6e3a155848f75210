/** The wallet: balance and token hash, credits spent per hour and day, low-balance notifications, recharge. */
import { useEffect, useState } from 'preact/hooks';
import type { PageProps } from '../app.js';
import { call, onBalance } from '../api.js';
import { useLoad } from '../use-load.js';
import { CopyButton, CostHint, ErrorNote, Loading, PageTitle } from '../components/ui.js';
import { SpendPanel } from '../components/spend-panel.js';
import { LowBalanceSettings } from '../components/low-balance-form.js';
import { Recharge } from '../components/recharge.js';
import './wallet.css';

interface WalletInfo {
  readonly wallet: number;
  readonly created: string;
  readonly hash: string;
}

export function Wallet(_props: PageProps) {
  // GET /token costs 1 credit: read once when the page opens; the balance then follows every call's x-balance.
  const info = useLoad(async () => (await call<WalletInfo>('GET', '/token')).data, []);
  return (
    <>
      <PageTitle title="Wallet">Wallet</PageTitle>
      <p class="muted">
        Opening this page reads the wallet and its notification settings (<CostHint credits={2} />
        ); the chart and the payment link are free.
      </p>
      <ErrorNote error={info.error} />
      <Loading when={info.data === undefined && info.loading} />
      {info.data === undefined ? null : <Balance info={info.data} />}
      <SpendPanel />
      <div class="wallet-columns">
        {info.data === undefined ? null : <LowBalanceSettings tokenHash={info.data.hash} />}
        <Recharge />
      </div>
    </>
  );
}

function Balance({ info }: { info: WalletInfo }) {
  const [balance, setBalance] = useState(info.wallet);
  useEffect(() => onBalance(setBalance), []);
  const created = new Date(info.created);
  return (
    <section class="panel wallet-summary" aria-labelledby="balance-heading">
      <div>
        <h2 id="balance-heading">Balance</h2>
        <p class="stat" data-testid="wallet-balance">
          {balance.toLocaleString()} <span class="unit">credits</span>
        </p>
        <p class="muted">
          Created <time dateTime={info.created}>{created.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' })}</time>
        </p>
      </div>
      <div class="wallet-hash">
        <h2 id="hash-heading">Token hash</h2>
        <p class="muted small">The SHA-256 of your token: safe to share with an operator or in a support request. The token itself is never shown.</p>
        <CopyButton text={info.hash} label="Copy hash" />
      </div>
    </section>
  );
}
