// Small JSON helpers every folder needs (one copy, here).

/** A plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Sets a field of a copy being built from parsed JSON. A `__proto__` key (JSON can carry one) is data: it is defined
 * as the copy's own field, never set as its prototype. */
export function setField(copy: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(copy, key, { value, enumerable: true, writable: true });
  else copy[key] = value;
}

/** Freezes a value and everything it holds (objects and arrays, depth first); frozen parts are not walked again. */
export function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
}
