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
