/**
 * Sign in with a pasted token (or a new one, which signs in at once), and/or an operator's admin token. Checked on
 * free calls before anything is kept.
 */
import { useState } from 'preact/hooks';
import { call, describeError } from '../api.js';
import { CopyButton, ErrorNote, PageTitle, plural } from '../components/ui.js';
import { session } from '../session.js';

/** A wallet made on this page: its token, shown once after sign-in, and what it holds. */
export interface NewWallet {
  readonly token: string;
  readonly balance: number | undefined;
}

/** Proves a wallet token on a free call (the last log entry): 401 for an unknown token; the answer carries x-balance. */
const proveWallet = async (): Promise<number | undefined> =>
  (await call('GET', '/token/logs', { query: { n: 1 } })).balance;

export function SignIn({ onSignedIn, notice }: { onSignedIn: (created?: NewWallet) => void; notice?: string }) {
  const [token, setToken] = useState('');
  const [adminToken, setAdminToken] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const wallet = token.trim();
    const admin = adminToken.trim();
    if (wallet === '' && admin === '') return setError('Paste a token, create one, or give the operator token.');
    setBusy(true);
    setError(undefined);
    try {
      session.signIn(wallet || null, admin || null);
      if (wallet !== '') await proveWallet();
      if (admin !== '') await call('GET', '/manage/stats', { admin: true, query: { days: 1 } });
      onSignedIn();
    } catch (failure) {
      session.signOut();
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };

  const create = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const answer = await call<string>('POST', '/token', { form: { token: 'new' } });
      const fresh = answer.data.trim();
      session.signIn(fresh, adminToken.trim() || null);
      onSignedIn({ token: fresh, balance: await proveWallet() });
    } catch (failure) {
      session.signOut();
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" class="sign-in">
      <PageTitle title="Sign in">coinop console</PageTitle>
      {notice === undefined ? null : (
        <p class="error" role="alert" data-testid="sign-in-notice">
          {notice}
        </p>
      )}
      <form onSubmit={(event) => void submit(event)}>
        <label for="token">API token</label>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="off"
          value={token}
          onInput={(event) => setToken(event.currentTarget.value)}
        />
        <p class="muted">Kept in this tab only (sessionStorage) and sent as the x-token header. Signing in is free.</p>
        <p>
          No token yet?{' '}
          <button type="button" disabled={busy} onClick={() => void create()}>
            Create a new token
          </button>{' '}
          <span class="muted">Free: makes a new wallet with its starting credits and signs in with it.</span>
        </p>
        <details>
          <summary>Operator</summary>
          <label for="admin-token">Admin token (ADMIN_TOKEN)</label>
          <input
            id="admin-token"
            name="admin-token"
            type="password"
            autoComplete="off"
            value={adminToken}
            onInput={(event) => setAdminToken(event.currentTarget.value)}
          />
        </details>
        <ErrorNote error={error} />
        <button type="submit" class="primary" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}

/** Above the first page after "Create a new token": the token, once, and what the new wallet holds. */
export function NewTokenNotice({ wallet, onDone }: { wallet: NewWallet; onDone: () => void }) {
  return (
    <div class="notice" role="status" data-testid="new-token">
      <p>
        <strong>
          Signed in with a new wallet
          {wallet.balance === undefined ? '' : ` holding ${plural(wallet.balance, 'credit')}`}.
        </strong>{' '}
        Its token is below: keep it somewhere safe. It is the only key to this wallet and cannot be shown again.
      </p>
      <CopyButton text={wallet.token} label="Copy token" />
      <p>
        <button type="button" onClick={onDone}>
          I have saved it
        </button>
      </p>
    </div>
  );
}
