/** The operator's overview: totals, credits spent per day, every wallet page by page, and opening one by its hash. */
import { useState } from 'preact/hooks';
import { navigate } from '../../router.js';
import { useLoad } from '../../use-load.js';
import { ErrorNote, Loading, PageTitle } from '../../components/ui.js';
import { DayBars } from '../../components/day-bars.js';
import { isWalletHash, operatorApi } from './operator-api.js';
import { WalletList } from './wallet-list.js';

const STATS_DAYS = 7;

export function Overview() {
  return (
    <>
      <PageTitle title="Operator">Operator</PageTitle>
      <Totals />
      <OpenWallet />
      <WalletList />
    </>
  );
}

function Totals() {
  const stats = useLoad(() => operatorApi.stats(STATS_DAYS), []);
  const spent = stats.data?.spentPerDay.reduce((sum, day) => sum + day.credits, 0);
  return (
    <section aria-labelledby="totals-title">
      <h2 id="totals-title">Totals</h2>
      <ErrorNote error={stats.error} />
      <Loading when={stats.loading && stats.data === undefined} />
      {stats.data === undefined ? null : (
        <div class="grid operator-totals">
          <div class="panel">
            <div class="muted">Wallets</div>
            <div class="stat" data-testid="total-wallets">
              {stats.data.wallets.toLocaleString()}
            </div>
          </div>
          <div class="panel">
            <div class="muted">Credits in circulation</div>
            <div class="stat" data-testid="total-credits">
              {stats.data.credits.toLocaleString()}
            </div>
          </div>
          <div class="panel">
            <div class="muted">Spent in the last {STATS_DAYS} days</div>
            <div class="stat">{(spent ?? 0).toLocaleString()}</div>
          </div>
          <div class="panel operator-chart">
            <h3>Credits spent per day</h3>
            <DayBars days={stats.data.spentPerDay} title={`Credits spent per day, last ${STATS_DAYS} days`} />
          </div>
        </div>
      )}
    </section>
  );
}

/** Users give their token's hash (GET /token shows it); the operator never needs the token itself. */
function OpenWallet() {
  const [hash, setHash] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const open = (event: Event) => {
    event.preventDefault();
    const wanted = hash.trim().toLowerCase();
    if (!isWalletHash(wanted))
      return setError('A wallet hash is 64 hexadecimal characters (GET /token shows it as "hash").');
    setError(undefined);
    navigate('operator', wanted);
  };
  return (
    <form class="panel" onSubmit={open} aria-labelledby="open-title">
      <h2 id="open-title">Open a wallet</h2>
      <div class="row">
        <div>
          <label for="open-hash">Wallet hash</label>
          <input
            id="open-hash"
            value={hash}
            spellcheck={false}
            autoComplete="off"
            aria-describedby="open-hash-help"
            onInput={(event) => setHash(event.currentTarget.value)}
          />
        </div>
        <button type="submit">Open</button>
      </div>
      <p id="open-hash-help" class="muted">
        The SHA-256 of the user's token, as GET /token shows it.
      </p>
      <ErrorNote error={error} />
    </form>
  );
}
