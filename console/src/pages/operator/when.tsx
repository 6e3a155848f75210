import { formatInstant, relativeTime } from '../../components/ui.js';

/** A past instant as "5 min ago", the exact time in its tooltip. */
export function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatInstant(iso)}>
      {relativeTime(iso)}
    </time>
  );
}
