// The game's tick as Skipper knows it. SpaceMolt's results never say the tick, so limits (--max-ticks), snapshots and
// tick utilisation read it from a clock: minimolt's own tick when Skipper can see it (embedded, or /health of a
// `skipper serve`), otherwise wall-clock time over the game's tick length — an estimate, and labelled as one.
import { leanGetJson, type LeanJsonAnswer } from '../game/index.js';
import { raceAbort, sleep } from '../shared/index.js';

export interface TickClock {
  /** 'server': the game's own tick; 'estimated': elapsed time ÷ the tick length since the clock started. */
  readonly source: 'server' | 'estimated';
  now(): number | undefined;
  /** The tick's length in ms when the game says it (minimolt: embedded, or /health `tick_ms`); else undefined. */
  readonly tickMs?: number;
  /** Reads the game's tick again where that costs a request (HTTP); a no-op elsewhere. Never throws. `untilKnown`:
   * a clock that has not read the game's tick yet keeps asking (with its waits) until it has, gives up, or `signal`
   * ends — for a run that counts ticks from its start. */
  refresh(signal?: AbortSignal, options?: { untilKnown?: boolean }): Promise<void>;
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

/** How a failed first read of /health is tried again: `attempts` reads in all, the waits between them doubling from
 * `firstWaitMs`; then, until the game answers, a read at most every `laterWaitMs` (on refresh), for `patienceMs`. */
export interface HealthRetry {
  attempts: number;
  firstWaitMs: number;
  laterWaitMs: number;
  patienceMs: number;
}

export const HEALTH_RETRY: HealthRetry = { attempts: 5, firstWaitMs: 250, laterWaitMs: 2_000, patienceMs: 120_000 };

/** One read of /health: the tick, an answer without one (not minimolt), or no answer (a busy or restarting server);
 * with the tick's length when the answer says it. */
type HealthRead = (
  | {
      kind: 'tick';
      tick: number;
      /** The next tick does not begin before this (local ms), when the server said when it is due; else -Infinity. */
      nextNotBefore: number;
    }
  | { kind: 'no-tick' }
  | { kind: 'failed' }
) & { tickMs?: number };

async function readHealth(
  get: (url: URL, init: { signal: AbortSignal }) => Promise<LeanJsonAnswer>,
  healthUrl: URL,
  clockNow: () => number,
): Promise<HealthRead> {
  const sentAt = clockNow();
  let response: LeanJsonAnswer;
  try {
    response = await get(healthUrl, { signal: AbortSignal.timeout(2000) });
  } catch (error) {
    return refused(error) ? { kind: 'no-tick' } : { kind: 'failed' };
  }
  if (!response.ok) {
    const status = response.status ?? 0;
    return status >= 500 || status === 429 ? { kind: 'failed' } : { kind: 'no-tick' };
  }
  try {
    const body = (await response.json()) as { tick?: unknown; tick_ms?: unknown; next_tick_ms?: unknown };
    const tickMs =
      typeof body.tick_ms === 'number' && Number.isFinite(body.tick_ms) && body.tick_ms >= 0 ? body.tick_ms : undefined;
    const length = tickMs !== undefined ? { tickMs } : {};
    if (typeof body.tick !== 'number' || !Number.isFinite(body.tick)) return { kind: 'no-tick', ...length };
    // The server answered after this read was sent, so its next tick is due no sooner than that much after sending.
    // A timer may fire a little early (Node's clock for timers is the event loop's, taken before the tick's own
    // work): a twentieth of a tick is left for that.
    const next = body.next_tick_ms;
    const nextNotBefore =
      typeof next === 'number' && Number.isFinite(next) && next > 0 && tickMs !== undefined
        ? sentAt + next - Math.max(2, tickMs / 20)
        : Number.NEGATIVE_INFINITY;
    return { kind: 'tick', tick: body.tick, nextNotBefore, ...length };
  } catch {
    return { kind: 'no-tick' };
  }
}

/** A refused connection is nobody listening (no /health to wait for); a timeout, a reset, a 5xx or 429 is a server
 * too busy to answer now, worth asking again. */
function refused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return cause?.code === 'ECONNREFUSED';
}

/** A minimolt server's /health says its tick (and when the next one is due); a server whose /health does not (real
 * SpaceMolt) gets an estimate. A server too busy to answer the first read (fifty captains starting at once) is asked
 * again with backoff; if it still has not answered, the tick is unknown (undefined, never a guess in another
 * unit) and each refresh asks again, at most every `laterWaitMs`, until it answers — so `--max-ticks` counts the
 * game's ticks, as `--duration` counts seconds. Only a server silent for `patienceMs` leaves an estimate. */
export async function httpClock(
  gameUrl: string,
  options: {
    /** How /health is read (default: a GET through the game calls' connection pool). */
    fetch?: (url: URL, init: { signal: AbortSignal }) => Promise<LeanJsonAnswer>;
    tickMs?: number;
    now?: () => number;
    retry?: Partial<HealthRetry>;
    sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  } = {},
): Promise<TickClock> {
  const get = options.fetch ?? leanGetJson;
  const healthUrl = new URL('/health', gameUrl);
  const clockNow = options.now ?? Date.now;
  const retry = { ...HEALTH_RETRY, ...options.retry };
  const startedAt = clockNow();
  let tickMs: number | undefined;
  // The next tick does not begin before this (local ms), when the server said when it is due; -Infinity otherwise.
  let nextNotBefore = Number.NEGATIVE_INFINITY;
  const read = async (): Promise<HealthRead> => {
    const answer = await readHealth(get, healthUrl, clockNow);
    if (answer.tickMs !== undefined) tickMs = answer.tickMs;
    if (answer.kind === 'tick') nextNotBefore = answer.nextNotBefore;
    return answer;
  };
  const sleepFor = options.sleep ?? sleep;
  let first = await read();
  for (let attempt = 1; first.kind === 'failed' && attempt < retry.attempts; attempt += 1) {
    await sleepFor(retry.firstWaitMs * 2 ** (attempt - 1));
    first = await read();
  }
  if (first.kind === 'no-tick') return estimatedClock(options.tickMs ?? SPACEMOLT_TICK_MS);
  let latest: number | undefined = first.kind === 'tick' ? first.tick : undefined;
  // Set when the game stayed silent for the whole patience: from then on an estimate, as for a server with no tick.
  let estimate: TickClock | undefined;
  let inFlight: Promise<void> | undefined;
  let readAt = clockNow();
  const shared = (): Promise<void> => {
    inFlight ??= read()
      .then((answer) => {
        readAt = clockNow();
        if (answer.kind === 'tick') latest = answer.tick;
        else if (latest === undefined && (answer.kind === 'no-tick' || readAt - startedAt >= retry.patienceMs))
          estimate = estimatedClock(options.tickMs ?? SPACEMOLT_TICK_MS, clockNow);
      })
      .finally(() => (inFlight = undefined));
    return inFlight;
  };
  const fresh = (at: number): boolean => {
    // Not yet answered: ask again no more often than `laterWaitMs`.
    if (latest === undefined) return at - readAt < retry.laterWaitMs;
    return at < nextNotBefore || (tickMs !== undefined && at - readAt < tickMs / 50);
  };
  return {
    get source() {
      return estimate ? 'estimated' : 'server';
    },
    now: () => (estimate ? estimate.now() : latest),
    get tickMs() {
      return tickMs;
    },
    refresh: async (signal, refreshOptions) => {
      while (refreshOptions?.untilKnown && latest === undefined && !estimate && !signal?.aborted) {
        await raceAbort(shared(), signal).catch(() => undefined);
        if (latest !== undefined || estimate || signal?.aborted) return;
        await sleepFor(retry.laterWaitMs, signal).catch(() => undefined);
      }
      if (estimate) return;
      // A fleet's captains share one clock and all ask it around each tick: one read in flight serves them all, one
      // that came back within a fiftieth of a tick is as good as a new one, and before the tick the server said is
      // next is due none is needed.
      if (!inFlight && fresh(clockNow())) return;
      // The read goes on for whoever else awaits it; this caller leaves on its own abort (refresh never throws).
      await raceAbort(shared(), signal).catch(() => undefined);
    },
  };
}
