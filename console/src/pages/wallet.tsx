import type { PageProps } from '../app.js';
import { PageTitle } from '../components/ui.js';

export function Wallet(_props: PageProps) {
  return <PageTitle title="Wallet">Wallet</PageTitle>;
}
