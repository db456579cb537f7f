// The figures of a session — ticks, credits and net worth measured between a start and an end state, tokens and cost —
// and the one set of snake_case names every `--json` output writes them under. `skipper sessions`, `skipper report`,
// export's outcome and the autoplay summary all measure here. Autoplay stores the state it started from as the
// snapshot before its first turn and the state it ended in as its last turn's, so its summary measures between the
// same two states as the commands that read the store.
import type { Usage } from '../shared/index.js';
import type { GameSnapshot } from '../store/index.js';

/** What a figure needs of a state: a stored snapshot, a report point or the live game state all fit. */
export interface FigureState {
  tick?: number | null | undefined;
  credits?: number | null | undefined;
  netWorth?: number | null | undefined;
}

export interface SessionFigures<State extends FigureState = GameSnapshot> {
  ticks: number | null;
  creditsChange: number | null;
  netWorthChange: number | null;
  start: State | null;
  end: State | null;
}

const change = (from: number | null | undefined, to: number | null | undefined): number | null =>
  typeof from === 'number' && typeof to === 'number' ? to - from : null;

/** The figures between two states; a change is null, not zero, when either side does not know it. */
export function figuresBetween<State extends FigureState>(
  start: State | null | undefined,
  end: State | null | undefined,
): SessionFigures<State> {
  const ticks = change(start?.tick, end?.tick);
  return {
    ticks: ticks === null ? null : Math.max(0, ticks),
    creditsChange: change(start?.credits, end?.credits),
    netWorthChange: change(start?.netWorth, end?.netWorth),
    start: start ?? null,
    end: end ?? null,
  };
}

/** The figures between the first and the last of a session's states (its stored snapshots, or a report's points). */
export function sessionFigures<State extends FigureState = GameSnapshot>(
  states: readonly State[],
): SessionFigures<State> {
  return figuresBetween(states[0], states.at(-1));
}

/** The game figures under the names every `--json` output uses. */
export interface FiguresJson {
  ticks: number | null;
  credits_start: number | null;
  credits_end: number | null;
  credits_change: number | null;
  net_worth_start: number | null;
  net_worth_end: number | null;
  net_worth_change: number | null;
}

export function figuresJson(figures: SessionFigures<FigureState>): FiguresJson {
  return {
    ticks: figures.ticks,
    credits_start: figures.start?.credits ?? null,
    credits_end: figures.end?.credits ?? null,
    credits_change: figures.creditsChange,
    net_worth_start: figures.start?.netWorth ?? null,
    net_worth_end: figures.end?.netWorth ?? null,
    net_worth_change: figures.netWorthChange,
  };
}

/** Model usage under the names every `--json` output uses; `tokens` is prompt + completion. */
export interface UsageJson {
  tokens: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: number;
}

export function usageJson(usage: Pick<Usage, 'promptTokens' | 'completionTokens' | 'costUsd'>): UsageJson {
  return {
    tokens: usage.promptTokens + usage.completionTokens,
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    cost_usd: usage.costUsd,
  };
}
