/** Sign in with a pasted token (or a new one), and/or an operator's admin token. Checked before anything is kept. */
import { useState } from 'preact/hooks';
import { call, describeError } from '../api.js';
import { CopyButton, ErrorNote, PageTitle } from '../components/ui.js';
import { session } from '../session.js';

export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [token, setToken] = useState('');
  const [adminToken, setAdminToken] = useState('');
  const [created, setCreated] = useState<string | undefined>(undefined);
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
      // Both tokens are proven on free calls: reading the last log entry answers 401 for an unknown token and
      // carries the balance (x-balance) for the header.
      if (wallet !== '') await call('GET', '/token/logs', { query: { n: 1 } });
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
      setCreated(fresh);
      setToken(fresh);
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" class="sign-in">
      <PageTitle title="Sign in">coinop console</PageTitle>
      <form onSubmit={(event) => void submit(event)}>
        <label for="token">API token</label>
        <input id="token" name="token" type="password" autoComplete="off" value={token} onInput={(event) => setToken(event.currentTarget.value)} />
        <p class="muted">Kept in this tab only (sessionStorage) and sent as the x-token header. Signing in is free.</p>
        {created === undefined ? (
          <p>
            No token yet?{' '}
            <button type="button" disabled={busy} onClick={() => void create()}>
              Create a new token
            </button>
          </p>
        ) : (
          <div class="notice" role="status">
            <p>Your new token. Keep it somewhere safe: it is the only key to this wallet and cannot be shown again.</p>
            <CopyButton text={created} label="Copy token" />
          </div>
        )}
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
