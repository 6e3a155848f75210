/**
 * Hash routes (`#/kv/settings`): the service serves one page at /console/, and links keep working when copied,
 * reloaded or opened in a new tab without any server-side routing.
 */
import { useEffect, useState } from 'preact/hooks';

/** The current route as decoded path segments: `#/webhooks/default/deliveries` → ['webhooks', 'default', 'deliveries']. */
export function currentRoute(): string[] {
  return location.hash
    .replace(/^#\/?/, '')
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => decodeURIComponent(segment));
}

export function useRoute(): string[] {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const changed = () => setRoute(currentRoute());
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}

/** An href for a route: each segment encoded. */
export const href = (...segments: string[]): string => `#/${segments.map(encodeURIComponent).join('/')}`;

export function navigate(...segments: string[]): void {
  location.hash = href(...segments);
}
