// metav1.Time on the wire: RFC 3339 in UTC at second precision, as Go's apimachinery marshals it.

/** `2024-03-20T02:14:49Z` for an instant in ms since the epoch (sub-second part dropped, as metav1.Time does). */
export function metaTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** ms since the epoch, or undefined when absent or not a timestamp. */
export function parseMetaTime(s: string | undefined | null): number | undefined {
  if (!s) return undefined;
  const ms = Date.parse(s);
  return Number.isNaN(ms) ? undefined : ms;
}
