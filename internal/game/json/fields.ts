// Small readers for the game's JSON answers (the legacy /mcp face answers JSON in content[0].text, and a server may
// send structuredContent). A field is looked up under each of its names, in any casing or separator style
// (`security_status`, `securityStatus`, `Security-Status`), because the game renames its keys between versions and
// clients disagree on them (test/fixtures/spacemolt/real: `system.pois` objects or ids, `best_buy` or
// `buy_orders[].price`). Each reader returns undefined for what it cannot read; none throws.

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const normal = (key: string): string => key.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The value under the first of `names` the object has (keys compared without case or separators). */
export function field(object: Json | undefined, ...names: string[]): unknown {
  if (!object) return undefined;
  for (const name of names) if (Object.hasOwn(object, name) && object[name] !== undefined) return object[name];
  const wanted = names.map(normal);
  for (const name of wanted) {
    for (const [key, value] of Object.entries(object)) if (value !== undefined && normal(key) === name) return value;
  }
  return undefined;
}

/** A number, or a numeric string ("1,234", "1,234cr", "326 GU"). */
export function num(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = /-?\d[\d,]*(?:\.\d+)?/.exec(value);
  if (!match) return undefined;
  const parsed = Number(match[0].replace(/,/g, ''));
  return Number.isFinite(parsed) ? parsed : undefined;
}

export function str(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

export function bool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (['yes', 'true', 'y', '1'].includes(word)) return true;
    if (['no', 'false', 'n', '0'].includes(word)) return false;
  }
  if (typeof value === 'number') return value !== 0;
  return undefined;
}

/** An object under one of `names`, or undefined. */
export function obj(object: Json | undefined, ...names: string[]): Json | undefined {
  const value = field(object, ...names);
  return isObject(value) ? value : undefined;
}

/** An array under one of `names`; `null` (the real get_notifications' "none") reads as empty. */
export function list(object: Json | undefined, ...names: string[]): unknown[] | undefined {
  const value = field(object, ...names);
  if (value === null) return [];
  return Array.isArray(value) ? value : undefined;
}

/** The id of a thing given as an id string or as an object with an id. */
export function idOf(value: unknown, ...names: string[]): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  return isObject(value) ? str(field(value, ...names, 'id')) : undefined;
}

/** Parses a text that is one JSON object; undefined for anything else. */
export function parseJsonObject(text: string): Json | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
