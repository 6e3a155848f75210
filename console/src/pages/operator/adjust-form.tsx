/** Credit or debit a wallet with a reason, kept on the call's entry in the wallet's log. Enter credits; Debit is a button. */
import { useRef, useState } from 'preact/hooks';
import { describeError } from '../../api.js';
import { CostHint, ErrorNote } from '../../components/ui.js';
import { operatorApi } from './operator-api.js';
import type { Adjustment } from './operator-api.js';

const MAX_AMOUNT = 1_000_000_000;
const MAX_REASON = 200;

/** `onTried` runs after every attempt (a refusal is logged too), with the new balance when it went through. */
export function AdjustForm({ hash, onTried }: { hash: string; onTried: (balance: number | undefined) => void }) {
  const form = useRef<HTMLFormElement>(null);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [done, setDone] = useState('');

  const run = async (kind: Adjustment) => {
    // The browser's own checks (required, 1..1e9, whole numbers) for the Debit button too, which does not submit.
    if (busy || form.current?.reportValidity() === false) return;
    setBusy(true);
    setError(undefined);
    setDone('');
    try {
      const credits = Number(amount);
      const after = await operatorApi.adjust(hash, kind, credits, reason.trim());
      setDone(
        `${kind === 'credit' ? 'Credited' : 'Debited'} ${credits.toLocaleString()} credits; balance now ${after.toLocaleString()}.`,
      );
      setAmount('');
      setReason('');
      onTried(after);
    } catch (failure) {
      setError(describeError(failure));
      onTried(undefined);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      ref={form}
      class="panel"
      aria-labelledby="adjust-title"
      onSubmit={(event) => {
        event.preventDefault();
        void run('credit');
      }}
    >
      <h2 id="adjust-title">Credit or debit</h2>
      <label for="adjust-amount">Amount (credits)</label>
      <input
        id="adjust-amount"
        type="number"
        inputMode="numeric"
        required
        min={1}
        max={MAX_AMOUNT}
        step={1}
        value={amount}
        onInput={(event) => setAmount(event.currentTarget.value)}
      />
      <label for="adjust-reason">Reason</label>
      <input
        id="adjust-reason"
        maxLength={MAX_REASON}
        value={reason}
        aria-describedby="adjust-reason-help"
        onInput={(event) => setReason(event.currentTarget.value)}
      />
      <p id="adjust-reason-help" class="muted">
        Optional, up to {MAX_REASON} characters; shown on this call's entry in the wallet's log.
      </p>
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          Credit
        </button>
        <button type="button" disabled={busy} onClick={() => void run('debit')}>
          Debit
        </button>
        <CostHint credits={0} />
      </div>
      <ErrorNote error={error} />
      <p class="ok" role="status">
        {done}
      </p>
    </form>
  );
}
