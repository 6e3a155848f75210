import type { PageProps } from '../app.js';
import { PageTitle } from '../components/ui.js';

export function Webhooks(_props: PageProps) {
  return <PageTitle title="Webhooks">Webhooks</PageTitle>;
}
