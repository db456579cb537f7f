// The game's tick as Skipper knows it. SpaceMolt's results never say the tick, so limits (--max-ticks), snapshots and
// tick utilisation read it from a clock: minimolt's own tick when Skipper can see it (embedded, or /health of a
// `skipper serve`), otherwise wall-clock time over the game's tick length — an estimate, and labelled as one.
import { leanGetJson, type LeanJsonAnswer } from '../game/index.js';
import { raceAbort } from '../shared/index.js';

export interface TickClock {
  /** 'server': the game's own tick; 'estimated': elapsed time ÷ the tick length since the clock started. */
  readonly source: 'server' | 'estimated';
  now(): number | undefined;
  /** The tick's length in ms when the game says it (minimolt: embedded, or /health `tick_ms`); else undefined. */
  readonly tickMs?: number;
  /** Reads the game's tick again where that costs a request (HTTP); a no-op elsewhere. Never throws. */
  refresh(signal?: AbortSignal): Promise<void>;
}

/** SpaceMolt's documented tick length. */
export const SPACEMOLT_TICK_MS = 10_000;

/** Between autoplay turns that made no move, wait about one tick: the game's own length when it says it, SpaceMolt's
 * otherwise (at least 50 ms, at most SpaceMolt's tick). */
export function idleWaitMs(tickMs: number | undefined): number {
  return Math.min(Math.max(tickMs ?? SPACEMOLT_TICK_MS, 50), SPACEMOLT_TICK_MS);
}

export function serverClock(read: () => number, tickMs?: number): TickClock {
  return { source: 'server', now: read, ...(tickMs !== undefined ? { tickMs } : {}), refresh: async () => {} };
}

export function estimatedClock(tickMs: number, now: () => number = Date.now): TickClock {
  const startedAt = now();
  return {
    source: 'estimated',
    now: () => Math.floor((now() - startedAt) / Math.max(1, tickMs)),
    refresh: async () => {},
  };
}

/** A minimolt server's /health says its tick (and when the next one is due); a server whose /health does not (real
 * SpaceMolt) gets an estimate. */
export async function httpClock(
  gameUrl: string,
  options: {
    /** How /health is read (default: a GET through the game calls' connection pool). */
    fetch?: (url: URL, init: { signal: AbortSignal }) => Promise<LeanJsonAnswer>;
    tickMs?: number;
    now?: () => number;
  } = {},
): Promise<TickClock> {
  const get = options.fetch ?? leanGetJson;
  const healthUrl = new URL('/health', gameUrl);
  const clockNow = options.now ?? Date.now;
  let tickMs: number | undefined;
  // The next tick does not begin before this (local ms), when the server said when it is due; -Infinity otherwise.
  let nextNotBefore = Number.NEGATIVE_INFINITY;
  const read = async (): Promise<number | undefined> => {
    const sentAt = clockNow();
    try {
      const response = await get(healthUrl, { signal: AbortSignal.timeout(2000) });
      if (!response.ok) return undefined;
      const body = (await response.json()) as { tick?: unknown; tick_ms?: unknown; next_tick_ms?: unknown };
      if (typeof body.tick_ms === 'number' && Number.isFinite(body.tick_ms) && body.tick_ms >= 0) tickMs = body.tick_ms;
      if (typeof body.tick !== 'number' || !Number.isFinite(body.tick)) return undefined;
      // The server answered after this read was sent, so its next tick is due no sooner than that much after sending.
      // A timer may fire a little early (Node's clock for timers is the event loop's, taken before the tick's own
      // work): a twentieth of a tick is left for that.
      const next = body.next_tick_ms;
      nextNotBefore =
        typeof next === 'number' && Number.isFinite(next) && next > 0 && tickMs !== undefined
          ? sentAt + next - Math.max(2, tickMs / 20)
          : Number.NEGATIVE_INFINITY;
      return body.tick;
    } catch {
      return undefined;
    }
  };
  let latest = await read();
  if (latest === undefined) return estimatedClock(options.tickMs ?? SPACEMOLT_TICK_MS);
  let inFlight: Promise<void> | undefined;
  let readAt = clockNow();
  const shared = (): Promise<void> => {
    inFlight ??= read()
      .then((tick) => {
        latest = tick ?? latest;
        readAt = clockNow();
      })
      .finally(() => (inFlight = undefined));
    return inFlight;
  };
  return {
    source: 'server',
    now: () => latest,
    get tickMs() {
      return tickMs;
    },
    refresh: async (signal) => {
      // A fleet's captains share one clock and all ask it around each tick: one read in flight serves them all, one
      // that came back within a fiftieth of a tick is as good as a new one, and before the tick the server said is
      // next is due none is needed.
      if (!inFlight) {
        const at = clockNow();
        if (at < nextNotBefore || (tickMs !== undefined && at - readAt < tickMs / 50)) return;
      }
      // The read goes on for whoever else awaits it; this caller leaves on its own abort (refresh never throws).
      await raceAbort(shared(), signal).catch(() => undefined);
    },
  };
}
