/** Values both engines bind the same way: booleans as 0/1, undefined as NULL. */
export function normaliseParam(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}
