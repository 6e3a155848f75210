import type { PageProps } from '../app.js';
import { PageTitle } from '../components/ui.js';

export function Tools(_props: PageProps) {
  return <PageTitle title="Tools">Tools</PageTitle>;
}
