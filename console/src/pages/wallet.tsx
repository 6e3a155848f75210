/**
 * The wallet: balance, credits spent per hour and day, recharge, and (when asked, 2 credits) the token hash and the
 * low-balance notifications. Opening the page is free: the balance comes from a free read of the call log (x-balance),
 * so signing in, which lands here, charges nothing.
 */
import { useEffect, useState } from 'preact/hooks';
import type { PageProps } from '../app.js';
import { call, knownBalance, onBalance } from '../api.js';
import { Charged, CopyButton, CostHint, ErrorNote, PageTitle, formatInstant } from '../components/ui.js';
import { usePaidCall } from '../components/use-paid-call.js';
import { SpendPanel } from '../components/spend-panel.js';
import { LowBalanceSettings } from '../components/low-balance-form.js';
import { Recharge } from '../components/recharge.js';
import { keepWalletInfo, knownWalletInfo, rememberSettings } from '../wallet-details.js';
import type { WalletInfo } from '../wallet-details.js';
import './wallet.css';

export function Wallet(_props: PageProps) {
  const [info, setInfo] = useState<WalletInfo | undefined>(knownWalletInfo);
  const details = usePaidCall<WalletInfo>({ cost: 2 });
  useEffect(() => {
    // Free (GET /token/logs): carries the balance for the header and this page.
    void call('GET', '/token/logs', { query: { n: 1 } }).catch(() => undefined);
  }, []);
  // Both reads, as the button says: the settings below then come from what is kept, and the two costs show as one.
  const show = async () => {
    const read = await details.run(async () => {
      const wallet = await call<WalletInfo>('GET', '/token');
      const settings = await call<unknown>('GET', '/token/settings');
      keepWalletInfo(wallet.data);
      rememberSettings(settings.data);
      return {
        status: 200,
        data: wallet.data,
        cost: (wallet.cost ?? 0) + (settings.cost ?? 0),
        balance: settings.balance ?? wallet.balance,
      };
    });
    if (read !== undefined) setInfo(read);
  };
  return (
    <>
      <PageTitle title="Wallet">Wallet</PageTitle>
      <p class="muted">
        Opening this page is free: the balance, the chart and the payment link cost nothing. The token hash and the
        notification settings are read when asked.
      </p>
      <section class="panel wallet-summary" aria-labelledby="balance-heading">
        <Balance />
        {info === undefined ? (
          <div class="wallet-hash">
            <h2 id="hash-heading">Token hash and notifications</h2>
            <p class="muted small">
              Reads the wallet (GET /token) and its low-balance settings (GET /token/settings), once for this session.
            </p>
            <div class="actions">
              <button type="button" disabled={details.busy} onClick={() => void show()}>
                Show token hash and notification settings
              </button>
              <CostHint credits={2} />
            </div>
            <ErrorNote error={details.error} />
          </div>
        ) : (
          <>
            <Hash info={info} />
            <Charged cost={details.cost} balance={details.balance} />
          </>
        )}
      </section>
      <SpendPanel />
      <div class="wallet-columns">
        {info === undefined ? null : <LowBalanceSettings tokenHash={info.hash} />}
        <Recharge />
      </div>
    </>
  );
}

function Balance() {
  const [balance, setBalance] = useState(knownBalance);
  useEffect(() => onBalance(setBalance), []);
  return (
    <div>
      <h2 id="balance-heading">Balance</h2>
      <p class="stat" data-testid="wallet-balance">
        {balance === undefined ? '…' : balance.toLocaleString('en')} <span class="unit">credits</span>
      </p>
    </div>
  );
}

function Hash({ info }: { info: WalletInfo }) {
  return (
    <div class="wallet-hash">
      <h2 id="hash-heading">Token hash</h2>
      <p class="muted small">
        The SHA-256 of your token: safe to share with an operator or in a support request. The token itself is never
        shown.
      </p>
      <CopyButton text={info.hash} label="Copy hash" />
      <p class="muted small">
        Wallet created <time dateTime={info.created}>{formatInstant(info.created)}</time>
      </p>
    </div>
  );
}
