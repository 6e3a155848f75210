/** One wallet for the operator: its balance and dates, credit or debit with a reason, its log, and deleting it. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { href } from '../../router.js';
import { useLoad } from '../../use-load.js';
import { CopyButton, ErrorNote, Loading, PageTitle } from '../../components/ui.js';
import { operatorApi, shortHash } from './operator-api.js';
import { AdjustForm } from './adjust-form.js';
import { WalletLog } from './wallet-log.js';
import { DeleteWallet } from './delete-wallet.js';
import { When } from './when.js';

export function WalletDetail({ hash }: { hash: string }) {
  const wallet = useLoad(() => operatorApi.wallet(hash), [hash]);
  // The balance a credit or debit answered with: newer than the wallet read when the page opened.
  const [balance, setBalance] = useState<number | undefined>(undefined);
  const [changes, setChanges] = useState(0);
  const [deleted, setDeleted] = useState(false);
  const title = `Wallet ${shortHash(hash)}…`;
  const back = (
    <p>
      <a href={href('operator')}>
        <span aria-hidden="true">← </span>All wallets
      </a>
    </p>
  );
  if (deleted) {
    return (
      <>
        {back}
        <PageTitle title={title}>{title}</PageTitle>
        <Deleted hash={hash} />
      </>
    );
  }
  const data = wallet.data;
  return (
    <>
      {back}
      <PageTitle title={title}>{title}</PageTitle>
      <ErrorNote error={wallet.error} />
      <Loading when={wallet.loading && data === undefined} />
      {data === undefined ? null : (
        <>
          <div class="grid">
            <section class="panel" aria-labelledby="facts-title">
              <h2 id="facts-title">Balance</h2>
              <div class="stat" data-testid="operator-balance">
                {(balance ?? data.wallet).toLocaleString()} <span class="op-unit">credits</span>
              </div>
              <dl class="op-facts">
                <dt>Last used (recorded to the hour)</dt>
                <dd>
                  <When iso={data.lastUsed} />
                </dd>
                <dt>Created</dt>
                <dd>
                  <When iso={data.created} />
                </dd>
              </dl>
              <CopyButton text={data.hash} label="Copy hash" />
            </section>
            <AdjustForm
              hash={hash}
              onTried={(after) => {
                if (after !== undefined) setBalance(after);
                setChanges((count) => count + 1);
              }}
            />
          </div>
          <WalletLog hash={hash} changes={changes} />
          <DeleteWallet hash={hash} onDeleted={() => setDeleted(true)} />
        </>
      )}
    </>
  );
}

/** Said where the focus was: the Delete button it was on is gone. */
function Deleted({ hash }: { hash: string }) {
  const note = useRef<HTMLParagraphElement>(null);
  useEffect(() => note.current?.focus(), []);
  return (
    <p class="notice" role="status" tabIndex={-1} ref={note}>
      Deleted wallet <code>{shortHash(hash)}…</code> with all its data; its token no longer works.
    </p>
  );
}
