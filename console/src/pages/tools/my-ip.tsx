/** GET /myip (1 credit): the address this browser reaches the service from, with what the geo database knows of it. */
import { call } from '../../api.js';
import { Charged, CostHint, ErrorNote, JsonView } from '../../components/ui.js';
import { usePaidCall } from '../../components/use-paid-call.js';
import type { OkBody } from '../../api-types.js';

type MyIpAnswer = OkBody<'myIp'>;

const FIELDS: ReadonlyArray<readonly [keyof MyIpAnswer, string]> = [
  ['ip', 'IPv4 address'],
  ['ipv6', 'IPv6 address'],
  ['country', 'Country'],
  ['continent', 'Continent'],
  ['region', 'Region'],
  ['city', 'City'],
  ['postalCode', 'Postal code'],
  ['timezone', 'Time zone'],
  ['latitude', 'Latitude'],
  ['longitude', 'Longitude'],
  ['userAgent', 'User agent'],
  ['acceptLanguage', 'Accept-Language'],
];

export function MyIp() {
  const lookup = usePaidCall<MyIpAnswer>({ cost: 1 });
  const answer = lookup.error === undefined ? lookup.result : undefined;
  return (
    <>
      <p>The address the service sees this browser call from, and where its geo database places it.</p>
      <div class="actions">
        <button
          type="button"
          class="primary"
          disabled={lookup.busy}
          onClick={() => void lookup.run(() => call<MyIpAnswer>('GET', '/myip'))}
        >
          Show my IP
        </button>
        <CostHint credits={1} />
      </div>
      <ErrorNote error={lookup.error} />
      <Charged cost={lookup.cost} balance={lookup.balance} />
      {answer === undefined ? null : (
        <section class="tools-result" aria-labelledby="myip-result-heading">
          <h3 id="myip-result-heading">Result</h3>
          <p class="stat tools-ip" data-testid="myip-address">
            {answer.ip || answer.ipv6 || '—'}
          </p>
          <dl class="tools-facts panel">
            {FIELDS.map(([field, label]) => (
              <div key={field} class={field === 'userAgent' ? 'tools-fact-wide' : undefined}>
                <dt>{label}</dt>
                <dd>{String(answer[field] ?? '') || <span class="muted">unknown</span>}</dd>
              </div>
            ))}
          </dl>
          <JsonView value={answer} />
        </section>
      )}
    </>
  );
}
