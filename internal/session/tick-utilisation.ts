// Tick utilisation — busy ticks ÷ ticks alive (ARCHITECTURE.md, Pacing) — defined once, for the autoplay summary
// and `skipper report`: the game's own figures when it reports them (minimolt's /stats), else Skipper's own count of
// the ticks its actions took over the ticks that went by, labelled as an estimate.

/** Where a utilisation figure came from. */
export type UtilisationSource = 'server' | 'estimated';

export interface TickUtilisation {
  /** 0..1. */
  value: number;
  source: UtilisationSource;
}

export interface TickUtilisationInput {
  /** The game's busy ticks and ticks alive over the same span, when it reports them. */
  server?: { busy: number; alive: number };
  /** Ticks the captain's successful actions took (one each; travel and jump say how many: ticksTaken), counted
   * over the same span as `ticksElapsed`. */
  actionTicks: number;
  /** Game ticks from the span's start to its end. */
  ticksElapsed: number | undefined;
}

/** The one utilisation figure: the server's when given, else the client's estimate; undefined when no tick passed. */
export function tickUtilisation(input: TickUtilisationInput): TickUtilisation | undefined {
  if (input.server) {
    const { busy, alive } = input.server;
    return alive > 0 ? { value: clamp(busy / alive), source: 'server' } : undefined;
  }
  const elapsed = input.ticksElapsed;
  if (elapsed === undefined || elapsed <= 0) return undefined;
  // Counted over the same span, actions cannot take more ticks than went by; an estimated clock (wall time over
  // the tick length) can run slow, and a tick cannot be busier than busy.
  return { value: clamp(input.actionTicks / elapsed), source: 'estimated' };
}

function clamp(value: number): number {
  return Math.min(1, Math.max(0, value));
}
