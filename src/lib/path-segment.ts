/**
 * A path parameter that URLs resolve away: `.` and `..` (and `%2E`) lead to another path, so a client that sent one
 * would reach another route, and be charged for its refusal. The wording the KV rules and the MCP tools share.
 */
export function dotSegmentProblem(field: string, value: string): string | null {
  return value === '.' || value === '..' ? `Invalid ${field}: . and .. cannot be sent as a path segment` : null;
}
