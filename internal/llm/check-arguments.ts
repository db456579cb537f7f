// Skipper's own check of a call's arguments against the tool's input schema, before anything reaches the game:
// the type and enum of each top-level argument the model sent. Missing required fields are left to the game (the
// game layer fills some by code: the password, the session id, the registration code) and so are unknown ones.
import type { JsonSchema } from '../shared/index.js';

type Property = { type?: unknown; enum?: unknown };

function typeOf(value: unknown): string[] {
  if (value === null) return ['null'];
  if (Array.isArray(value)) return ['array'];
  if (typeof value === 'number') return Number.isInteger(value) ? ['integer', 'number'] : ['number'];
  return [typeof value];
}

/** Problems found, one per argument (`units: expected integer, got string`); empty when the arguments pass. */
export function checkArguments(args: Record<string, unknown>, schema: JsonSchema): string[] {
  const properties = schema.properties;
  if (!properties || typeof properties !== 'object') return [];
  const problems: string[] = [];
  for (const [name, value] of Object.entries(args)) {
    const property = properties[name] as Property | undefined;
    if (!property || typeof property !== 'object') continue;
    const declared =
      typeof property.type === 'string'
        ? [property.type]
        : Array.isArray(property.type)
          ? property.type.filter((t): t is string => typeof t === 'string')
          : [];
    const actual = typeOf(value);
    if (declared.length > 0 && !declared.some((type) => actual.includes(type))) {
      problems.push(`${name}: expected ${declared.join(' or ')}, got ${actual[0]}`);
      continue;
    }
    if (
      Array.isArray(property.enum) &&
      property.enum.length > 0 &&
      !property.enum.some((allowed) => allowed === value)
    ) {
      problems.push(
        `${name}: must be one of ${property.enum.map((allowed) => JSON.stringify(allowed)).join(', ')}, got ${JSON.stringify(value)}`,
      );
    }
  }
  return problems;
}
