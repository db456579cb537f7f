// Ticks, credits and net worth of a stored session, measured between its first and last snapshots: the figures
// `skipper sessions` shows. `skipper report` works out its own (buildReport in internal/cli) over the same snapshots,
// starting from the first dashboard in the transcript for sessions stored without a turn-0 snapshot. Autoplay stores
// the state it started from as the snapshot before its first turn and the state it ended in as its last turn's, so
// its summary measures between the same two states.
import type { GameSnapshot } from '../store/index.js';

export interface SessionFigures {
  ticks: number | null;
  creditsChange: number | null;
  netWorthChange: number | null;
  start: GameSnapshot | null;
  end: GameSnapshot | null;
}

const change = (from: number | null | undefined, to: number | null | undefined): number | null =>
  typeof from === 'number' && typeof to === 'number' ? to - from : null;

export function sessionFigures(snapshots: readonly GameSnapshot[]): SessionFigures {
  const start = snapshots[0] ?? null;
  const end = snapshots.at(-1) ?? null;
  const ticks = change(start?.tick, end?.tick);
  return {
    ticks: ticks === null ? null : Math.max(0, ticks),
    creditsChange: change(start?.credits, end?.credits),
    netWorthChange: change(start?.netWorth, end?.netWorth),
    start,
    end,
  };
}
