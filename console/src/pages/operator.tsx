import type { PageProps } from '../app.js';
import { PageTitle } from '../components/ui.js';

export function Operator(_props: PageProps) {
  return <PageTitle title="Operator">Operator</PageTitle>;
}
