/**
 * The service's error as a sentence. Most errors are plain text already; DNS may answer 400 with JSON
 * `{error, field}` and URL metadata failures are `{success: false, error}`: those read as "400: <error> (field)".
 */
export function readableError(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  const match = /^(\d{3}): (\{[\s\S]*\})$/.exec(message);
  if (match === null) return message;
  try {
    const body = JSON.parse(match[2] ?? '') as { error?: unknown; field?: unknown };
    if (typeof body.error !== 'string') return message;
    return `${match[1]}: ${body.error}${typeof body.field === 'string' ? ` (${body.field})` : ''}`;
  } catch {
    return message;
  }
}
