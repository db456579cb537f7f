// One vocabulary for why things end and for the figures people read: the turn's outcome, the one stop-code union a
// turn, autoplay, the fleet and the bench all stop with, the `stop_reason` object every `--json` writes, and the names
// stored turn outcomes had before they were snake_case (old rows still read). Every code is snake_case, like the error codes
// in errors.ts and the game's own.

/** How a turn ended. `round_limit`, `loop_detected`, `budget_exceeded` and `limit_reached` are stops, not success. */
export const TURN_OUTCOMES = [
  'answered',
  'round_limit',
  'loop_detected',
  'budget_exceeded',
  'limit_reached',
  'cancelled',
  'failed',
] as const;
export type TurnOutcome = (typeof TURN_OUTCOMES)[number];

/**
 * Every reason a turn or a run of turns stops, one name each: a turn's stops (its outcomes but `answered`), and what
 * only autoplay, the fleet and the bench stop on — a flag's limit (`max_turns`, `max_ticks`, `duration`) and turns
 * failing in a row (`failures`). A budget spent is `budget_exceeded` and an abort (Ctrl+C, /stop, a signal) is
 * `cancelled`, whoever found it.
 */
export const STOP_CODES = [
  'round_limit',
  'loop_detected',
  'budget_exceeded',
  'limit_reached',
  'cancelled',
  'failed',
  'max_turns',
  'max_ticks',
  'duration',
  'failures',
] as const;
export type StopCode = (typeof STOP_CODES)[number];

/** `stop_reason` in every `--json` output: the code to test on, the limit it hit (when a number), the words to read. */
export interface StopReasonJson {
  code: StopCode;
  limit?: number;
  text: string;
}

export function isStopCode(value: unknown): value is StopCode {
  return typeof value === 'string' && (STOP_CODES as readonly string[]).includes(value);
}

/** The turn outcomes stored before the vocabulary was snake_case (turns rows of older Skippers). */
const FORMER_OUTCOMES: Readonly<Record<string, TurnOutcome>> = {
  'round-limit': 'round_limit',
  'loop-detected': 'loop_detected',
  'budget-exceeded': 'budget_exceeded',
  'limit-reached': 'limit_reached',
};

/** A turn outcome as stored, old names included, in today's vocabulary; an unknown word stays as it was. */
export function turnOutcomeOf(stored: string): TurnOutcome {
  return FORMER_OUTCOMES[stored] ?? (stored as TurnOutcome);
}

// ---- snake_case keys: every --json output and the web API write their fields this way ----

type Digit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';

/** snakeCase at the type level, so a script's (or a test's) field names are checked against what is written. A name
 * already in snake_case stays as it is (`ci95_low`). */
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

/**
 * `startedAt` → `started_at`, `outcomePer100Ticks` → `outcome_per_100_ticks`. A name already in snake_case stays as it
 * is: the other keys a result holds are the game's error codes (`errors_by_code`) and the planner's wake reasons.
 */
export function snakeCase(name: string): string {
  // A name already in snake_case stays as it is (`ci95_low`, the game's error codes).
  if (name.includes('_') && name === name.toLowerCase()) return name;
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([a-zA-Z])([0-9])/g, '$1_$2')
    .toLowerCase();
}

/**
 * `value` with every object key in snake_case, at every depth; arrays and plain values as they are. The values of the
 * keys in `keepInside` are maps keyed by data (POI ids, the game's error codes): their own keys stay as they are.
 */
export function snakeCaseKeys<T>(value: T, options: { keepInside?: readonly string[] } = {}): SnakeCased<T> {
  return convertKeys(value, new Set(options.keepInside ?? [])) as SnakeCased<T>;
}

function convertKeys(value: unknown, keepInside: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => convertKeys(item, keepInside));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => {
      const name = snakeCase(key);
      return [name, keepInside.has(name) ? keepKeys(field, keepInside) : convertKeys(field, keepInside)];
    }),
  );
}

/** A map keyed by data: its keys as they are, each value converted. */
function keepKeys(value: unknown, keepInside: ReadonlySet<string>): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return convertKeys(value, keepInside);
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, convertKeys(field, keepInside)]));
}
