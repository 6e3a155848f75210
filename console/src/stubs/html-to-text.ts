/**
 * Stands in for html-to-text in the browser bundle (scripts/build-console.ts aliases it): the console renders previews
 * of sample messages that carry a text body, so the shared formatters never convert HTML there. Tags are dropped,
 * which is enough should one ever reach it.
 */
export function compile(_options?: unknown): (html: string) => string {
  return (html) => html.replace(/<[^>]*>/g, ' ');
}
