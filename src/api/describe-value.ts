/**
 * A value as an error message shows it: a string quoted, and cut after `limit` characters, so that nothing a
 * caller passed (or an attacker wrote) is echoed at length; any other value by its type.
 */
export function describeValue(value: unknown, limit = 200): string {
  if (typeof value === 'string') return JSON.stringify(value.length > limit ? `${value.slice(0, limit)}…` : value);
  return value === null ? 'null' : typeof value;
}
