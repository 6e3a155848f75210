import type { PageProps } from '../app.js';
import { PageTitle } from '../components/ui.js';

export function Logs(_props: PageProps) {
  return <PageTitle title="Call logs">Call logs</PageTitle>;
}
