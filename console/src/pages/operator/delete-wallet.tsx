/** Deleting a wallet with all its data, confirmed by typing the first 8 characters of its hash. */
import { useState } from 'preact/hooks';
import { describeError } from '../../api.js';
import { ErrorNote } from '../../components/ui.js';
import { operatorApi, shortHash } from './operator-api.js';

export function DeleteWallet({ hash, onDeleted }: { hash: string; onDeleted: () => void }) {
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const expected = shortHash(hash);
  const confirmed = typed.trim().toLowerCase() === expected;

  const remove = async (event: Event) => {
    event.preventDefault();
    if (!confirmed || busy) return;
    setBusy(true);
    setError(undefined);
    try {
      await operatorApi.remove(hash);
      onDeleted();
    } catch (failure) {
      setError(describeError(failure));
      setBusy(false);
    }
  };

  return (
    <form class="panel op-danger" aria-labelledby="delete-title" onSubmit={(event) => void remove(event)}>
      <h2 id="delete-title">Delete this wallet</h2>
      <p>
        Removes the wallet and everything it owns: keys, webhooks, schedules, settings, its log and delivery history.
        Its token answers 401 from then on. This cannot be undone.
      </p>
      <label for="delete-confirm">
        Type <code>{expected}</code>, the first 8 characters of the hash, to confirm
      </label>
      <div class="row">
        <input
          id="delete-confirm"
          autoComplete="off"
          spellcheck={false}
          value={typed}
          onInput={(event) => setTyped(event.currentTarget.value)}
        />
        <button type="submit" class="danger" disabled={!confirmed || busy}>
          Delete wallet
        </button>
      </div>
      <ErrorNote error={error} />
    </form>
  );
}
