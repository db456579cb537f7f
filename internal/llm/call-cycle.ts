// The loop guard's cycle detector (rule 11): over the turn's sequence of calls — tool name and canonical arguments,
// results ignored, errors and successes alike — finds a cycle of 1 to 4 calls repeated back to back at the tail.
// Results are ignored because a game's results change on their own (the tick, a dashboard line), so a captain going
// travel(A) → travel(B) → travel(A)… never repeats a result although it is plainly going round in circles.
//
// How many times round is a loop depends on what the cycle does:
// - one call on its own, or a cycle whose only action is one call (mine; mine → get_cargo): SAME_ACTION_REPEATS (6)
//   times. Repeating one action is how these games are played (mining fills the hold one tick at a time), so it takes
//   more than a full turn of the built-in autopilot — at most 5 actions a turn (MAX_MUTATIONS_PER_TURN), often
//   mine ×5 — and a model polling a transit or mining on is sent on to a fresh turn rather than cut early;
// - two calls otherwise (travel A ↔ B, dock ↔ undock, get_system ↔ get_map with nothing done between): 3 times,
//   6 calls. Twice can be a route there and back; a third time with the very same arguments is going round;
// - three or four calls otherwise (a wander A → B → C, a lap of looks): 2 times, 6–8 calls, the same evidence as a
//   pair seen 3 times. A legitimate lap (buy, travel, sell, travel) rarely repeats with identical arguments, since
//   quantities follow the credits.
// The same call with the same result 3 times is caught earlier by the exact-repeat rule (guards.ts).
import { clip } from '../shared/index.js';

/** One call of the turn, as the detector sees it. */
export interface CallRecord {
  /** Tool name and canonical arguments: equal keys are the same call. */
  key: string;
  /** How the call is named to the model and the person (see callLabel). */
  label: string;
  /** Whether the call acts on the world (a mutation or a free action) rather than reading it. */
  action: boolean;
}

export interface CallCycle {
  /** The cycle's calls, labelled, in order. */
  calls: string[];
  /** Times round, back to back, at the tail of the turn. */
  repeats: number;
  /** Whether the only action in the cycle is one call repeated (mining), judged like a call repeated on its own. */
  sameAction: boolean;
}

export const MAX_CYCLE_LENGTH = 4;
/** Times round for one call, or one action with looks between (see the header). */
export const SAME_ACTION_REPEATS = 6;

/** Times round before a cycle counts as a loop. */
export function repeatsForLoop(cycle: readonly CallRecord[]): number {
  if (isSameAction(cycle)) return SAME_ACTION_REPEATS;
  return cycle.length === 2 ? 3 : 2;
}

/** The shortest cycle repeated often enough at the tail of `calls` (repeatsForLoop), or undefined. Pure. */
export function findCycle(calls: readonly CallRecord[]): CallCycle | undefined {
  for (let length = 1; length <= MAX_CYCLE_LENGTH; length += 1) {
    if (calls.length < length * 2) break;
    const cycle = calls.slice(-length);
    // A, A is A repeated and A, B, A, B is A, B repeated: judged at their shortest length.
    if (!isPrimitive(cycle)) continue;
    const repeats = tailRepeats(calls, cycle);
    if (repeats >= repeatsForLoop(cycle)) {
      return { calls: cycle.map((call) => call.label), repeats, sameAction: isSameAction(cycle) };
    }
  }
  return undefined;
}

/** How a call is named in a nudge: `travel(id=sol_belt)`. Values are clipped, and any argument that could hold a
 * secret (password, token, key, code) is shown as `…`: the nudge reaches the terminal and the logs (rule 14). */
export function callLabel(name: string, args: Record<string, unknown> | string): string {
  if (typeof args === 'string') return `${name || '(no name)'}(${clip(args, 40)})`;
  const parts = Object.keys(args)
    .sort()
    .map((key) => `${key}=${/pass|secret|token|key|code/i.test(key) ? '…' : clip(valueText(args[key]), 40)}`);
  return `${name || '(no name)'}(${parts.join(', ')})`;
}

/** The cycle as one line: `travel(id=a) → travel(id=b)`. */
export function cycleText(cycle: CallCycle): string {
  return cycle.calls.join(' → ');
}

function isSameAction(cycle: readonly CallRecord[]): boolean {
  if (cycle.length === 1) return true;
  const actions = new Set(cycle.filter((call) => call.action).map((call) => call.key));
  return actions.size === 1;
}

function isPrimitive(cycle: readonly CallRecord[]): boolean {
  for (let period = 1; period < cycle.length; period += 1) {
    if (cycle.length % period !== 0) continue;
    if (cycle.every((call, index) => call.key === (cycle[index % period] as CallRecord).key)) return false;
  }
  return true;
}

function tailRepeats(calls: readonly CallRecord[], cycle: readonly CallRecord[]): number {
  const length = cycle.length;
  let repeats = 1;
  for (;;) {
    const start = calls.length - (repeats + 1) * length;
    if (start < 0) return repeats;
    for (let index = 0; index < length; index += 1) {
      if ((calls[start + index] as CallRecord).key !== (cycle[index] as CallRecord).key) return repeats;
    }
    repeats += 1;
  }
}

function valueText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}
