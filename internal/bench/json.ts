// The --json form of the benchmarks' output (`skipper bench --json`, its results.json, `npm run bench -- --json`):
// every field name in snake_case, like every other --json output of Skipper (README, "For scripts").
import type { BenchResults } from './bench.js';

type Digit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';

/** snakeCase at the type level, so a script's (or a test's) field names are checked against what is written. */
export type SnakeName<Name extends string> = Name extends `${string}_${string}`
  ? Name extends Lowercase<Name>
    ? Name
    : Converted<Name>
  : Converted<Name>;

type Converted<Name extends string, Previous extends string = ''> = Name extends `${infer First}${infer Rest}`
  ? `${First extends Digit
      ? Previous extends Digit | '_' | ''
        ? First
        : `_${First}`
      : First extends Lowercase<First>
        ? First
        : Previous extends ''
          ? Lowercase<First>
          : `_${Lowercase<First>}`}${Converted<Rest, First>}`
  : Name;

/** `T` with every object key in snake_case, at every depth (what snakeCaseKeys returns). */
export type SnakeCased<T> = T extends readonly (infer Item)[]
  ? SnakeCased<Item>[]
  : T extends object
    ? { [Key in keyof T as Key extends string ? SnakeName<Key> : Key]: SnakeCased<T[Key]> }
    : T;

/** A bench's results as `skipper bench --json` prints them and results.json holds them. */
export type BenchResultsJson = SnakeCased<BenchResults>;

/**
 * `startedAt` → `started_at`, `outcomePer100Ticks` → `outcome_per_100_ticks`. A name already in snake_case stays as it
 * is: the other keys a result holds are the game's error codes (`errors_by_code`), the planner's wake reasons and the
 * figures named in snake_case where they are made (`ci95_low`).
 */
export function snakeCase(name: string): string {
  if (name.includes('_') && name === name.toLowerCase()) return name;
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([a-zA-Z])([0-9])/g, '$1_$2')
    .toLowerCase();
}

/** `value` with every object key in snake_case, at every depth; arrays and plain values as they are. */
export function snakeCaseKeys<T>(value: T): SnakeCased<T> {
  return convertKeys(value) as SnakeCased<T>;
}

function convertKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(convertKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [snakeCase(key), convertKeys(field)]));
}

export function benchResultsJson(results: BenchResults): BenchResultsJson {
  return snakeCaseKeys(results);
}
