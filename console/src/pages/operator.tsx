/** The operator's section (admin token only): `#/operator` the overview, `#/operator/<hash>` one wallet. */
import type { PageProps } from '../app.js';
import { Overview } from './operator/overview.js';
import { WalletDetail } from './operator/wallet-detail.js';
import './operator/operator.css';

export function Operator({ route }: PageProps) {
  const [hash] = route;
  return <div class="operator">{hash === undefined ? <Overview /> : <WalletDetail key={hash} hash={hash} />}</div>;
}
