import type { PageProps } from '../app.js';
import { PageTitle } from '../components/ui.js';

export function KeyValue(_props: PageProps) {
  return <PageTitle title="Key-value">Key-value</PageTitle>;
}
