// Sliding-window rate limits on the wall clock: queries per player, failed logins per username (SIM-SPEC "Clock"),
// logins and registrations per client address (SpaceMolt's documented 30 a minute per IP), and registrations alone per
// address (ours: without it one address could still make 30 accounts a minute, 43,000 a day).

export interface RateLimits {
  /** Query tools per player per minute (default 300; 0 = unlimited, for benchmarks). */
  queriesPerMinute?: number;
  /** Failed logins per username per minute before login is refused (default 5). */
  failedLoginsPerMinute?: number;
  /** Logins plus registrations per client address per minute (default 30; 0 = unlimited). In-memory sessions share
   * one local address. */
  loginsPerMinutePerAddress?: number;
  /** Registrations per client address per minute, counted besides the combined limit above (default 10, or unlimited
   * when loginsPerMinutePerAddress is 0 and this is not given, so lifting the address limit lifts both; 0 = unlimited). */
  registrationsPerMinutePerAddress?: number;
}

export const DEFAULT_REGISTRATIONS_PER_MINUTE = 10;

/** The registrations-only limit the options mean (see RateLimits.registrationsPerMinutePerAddress). */
export function registrationsPerMinute(limits: RateLimits = {}): number {
  if (limits.registrationsPerMinutePerAddress !== undefined) return limits.registrationsPerMinutePerAddress;
  return limits.loginsPerMinutePerAddress === 0 ? 0 : DEFAULT_REGISTRATIONS_PER_MINUTE;
}

const WINDOW_MS = 60_000;

/** Remembers the last `limit` event times per key; a full window means wait until the oldest one expires. */
export class SlidingWindow {
  private readonly events = new Map<string, number[]>();
  constructor(readonly limit: number) {}

  /** Seconds to wait, or 0 when another event is allowed now. */
  retryAfter(key: string, now: number): number {
    if (this.limit <= 0) return 0;
    const times = this.prune(key, now);
    if (times.length < this.limit) return 0;
    return Math.max(1, Math.ceil(((times[0] as number) + WINDOW_MS - now) / 1000));
  }

  record(key: string, now: number): void {
    if (this.limit <= 0) return;
    const times = this.prune(key, now);
    times.push(now);
    if (times.length > this.limit) times.shift();
    this.events.set(key, times);
  }

  private prune(key: string, now: number): number[] {
    const times = this.events.get(key) ?? [];
    let drop = 0;
    while (drop < times.length && (times[drop] as number) <= now - WINDOW_MS) drop++;
    if (drop > 0) times.splice(0, drop);
    if (times.length === 0) this.events.delete(key);
    return times;
  }
}
