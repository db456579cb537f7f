// The one Retry-After reader, for both boundaries that retry: the model client (an HTTP header: delay seconds or an
// HTTP date) and the game connection (the same header on an HTTP 429, and a game's JSON `retry_after`, a
// number of seconds). Everything comes back in milliseconds, the unit every wait in Skipper is counted in.

/**
 * Milliseconds to wait, never negative: a number is seconds (JSON `retry_after`); a string is delay seconds
 * ("1", "1.5") or an HTTP date, measured from `now`. Undefined when there is nothing usable.
 */
export function parseRetryAfter(
  value: string | number | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? toMs(value) : undefined;
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(text)) return toMs(Number(text));
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

function toMs(seconds: number): number {
  return Math.max(0, Math.round(seconds * 1000));
}
