/** A payment link from GET /recharge (free); the service answers 501 when Stripe is not set up, said plainly. */
import { useState } from 'preact/hooks';
import { ApiError, call, describeError } from '../api.js';
import { httpHref } from './http-href.js';
import { CostHint } from './ui.js';
import { useServiceFacts } from '../service-facts.js';

const AMOUNTS = [
  { value: '1', label: '1 million credits' },
  { value: '3', label: '3 million credits' },
] as const;

export function Recharge() {
  // Only what the service sells is offered (service.json); before it says, or if it cannot, both amounts are.
  const offered = useServiceFacts()?.rechargeAmounts;
  const amounts = offered === undefined ? AMOUNTS : AMOUNTS.filter((option) => offered.includes(option.value));
  const [chosen, setAmount] = useState<string | undefined>(undefined);
  const amount = amounts.find((option) => option.value === chosen)?.value ?? amounts[0]?.value ?? '1';
  const [link, setLink] = useState<{ url: string; amount: string } | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const fetchLink = async () => {
    setBusy(true);
    setLink(undefined);
    setError(undefined);
    try {
      const answer = (await call<string>('GET', '/recharge', { query: { amount } })).data.trim();
      if (httpHref(answer) === undefined)
        setError(`The service answered with something that is not a payment link: ${answer.slice(0, 200)}`);
      else setLink({ url: answer, amount });
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.status === 501
          ? `Recharge is not set up on this service (${describeError(failure)}).`
          : describeError(failure),
      );
    } finally {
      setBusy(false);
    }
  };
  if (amounts.length === 0)
    return (
      <section class="panel" aria-labelledby="recharge-heading">
        <h2 id="recharge-heading">Recharge</h2>
        <p data-testid="recharge-not-sold">
          This instance sells no credits (its operator has not set up payments): ask its operator to add credits to your
          wallet.
        </p>
      </section>
    );
  return (
    <section class="panel" aria-labelledby="recharge-heading">
      <h2 id="recharge-heading">Recharge</h2>
      <div class="row">
        <div>
          <label for="recharge-amount">Amount</label>
          <select id="recharge-amount" value={amount} onChange={(event) => setAmount(event.currentTarget.value)}>
            {amounts.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <button type="button" onClick={() => void fetchLink()} disabled={busy}>
          Get a payment link
        </button>
      </div>
      <p class="muted small">
        <CostHint credits={0} />. The link opens the payment page in a new tab; the credits arrive when the payment
        completes.
      </p>
      <div role="status">
        {link === undefined ? null : (
          <p>
            <a href={httpHref(link.url)} target="_blank" rel="noopener noreferrer">
              Pay for {AMOUNTS.find((option) => option.value === link.amount)?.label ?? 'credits'} (opens a new tab)
            </a>
          </p>
        )}
        {error === undefined ? null : <p class="error">{error}</p>}
      </div>
    </section>
  );
}
