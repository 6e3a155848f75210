import { errorText } from '../../../../clients/typescript/src/errors.js';

/**
 * The service's error as a sentence: "400: <error> (field)" for a DNS or URL-metadata failure answered as JSON (the
 * SDK's reading, `errorText`), the message itself otherwise.
 */
export function readableError(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  const match = /^(\d{3}): (\{[\s\S]*\})$/.exec(message);
  return match === null ? message : `${match[1]}: ${errorText(match[2] ?? '')}`;
}
