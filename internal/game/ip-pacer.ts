// The machine's share of the game's limits (rule 18): every connection of one process shares one IpPacer, made by
// the caller and passed in through ConnectGameOptions (never a module-level singleton). It paces logins and
// registrations (SpaceMolt: 30 a minute per IP) and counts the server's refusals over a sliding minute: past a
// soft threshold, far below the 50 that put the IP in a timeout, every call of every connection waits first.
import type { CallFailure } from './result.js';
import { realClock, type GameClock } from './options.js';
import type { ToolResult } from '../shared/index.js';

export interface IpPacerOptions {
  /** Logins + registrations allowed per window (default 30). */
  loginsPerWindow?: number;
  /** The sliding window for logins and refusals, in ms (default 60,000). */
  windowMs?: number;
  /** Refusals in a window that make every call wait (default 20; SpaceMolt times the IP out at 50). */
  rejectionThreshold?: number;
  /** Defaults to real time; tests share one fake clock with their connections. */
  clock?: GameClock;
}

/** What the machine has spent of its budgets in the current window, for stats ("IP health"). */
export interface IpHealth {
  loginsInWindow: number;
  rejectionsInWindow: number;
  /** Since the pacer was made. */
  loginWaits: number;
  backoffs: number;
  rejections: number;
  /** The most logins + registrations any window held (never above loginsPerWindow). */
  peakLogins: number;
}

/** The answers the server counts against the IP: rate limits and refused logins or sessions. */
const REJECTION_CODES = new Set([
  'rate_limited',
  'ip_timeout',
  'session_required',
  'session_invalid',
  'not_authenticated',
  'invalid_credentials',
  'invalid_token',
]);

/** True when one try's outcome is a refusal the server counts against the machine. An HTTP 503 (the game or its auth
 * down) is none: it says nothing about this machine, and counting it would slow every captain after an outage. */
export function isRejection(
  outcome: { kind: 'answer'; result: ToolResult } | { kind: 'failure'; failure: CallFailure },
): boolean {
  if (outcome.kind === 'failure') return outcome.failure.kind === 'http_rate_limited';
  return outcome.result.isError && outcome.result.code !== undefined && REJECTION_CODES.has(outcome.result.code);
}

export type PacerWait = { reason: 'login_budget' | 'rejection_backoff'; waitMs: number };

export class IpPacer {
  readonly clock: GameClock;
  private readonly loginsPerWindow: number;
  private readonly windowMs: number;
  private readonly rejectionThreshold: number;
  private readonly logins: number[] = [];
  private readonly refusals: number[] = [];
  private readonly totals = { loginWaits: 0, backoffs: 0, rejections: 0, peakLogins: 0 };

  constructor(options: IpPacerOptions = {}) {
    this.clock = options.clock ?? realClock();
    this.loginsPerWindow = options.loginsPerWindow ?? 30;
    this.windowMs = options.windowMs ?? 60_000;
    this.rejectionThreshold = options.rejectionThreshold ?? 20;
  }

  /** Waits until a login or registration may be sent, then takes its slot. */
  async admitLogin(signal: AbortSignal | undefined, onWait: (wait: PacerWait) => void): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      const waitMs = untilRoom(this.logins, this.loginsPerWindow, this.windowMs, now);
      if (waitMs === 0) {
        this.logins.push(now);
        this.totals.peakLogins = Math.max(this.totals.peakLogins, this.logins.length);
        return;
      }
      this.totals.loginWaits += 1;
      onWait({ reason: 'login_budget', waitMs });
      await this.clock.sleep(waitMs, signal);
    }
  }

  /** Waits while the window holds too many refusals (every call, every connection sharing this pacer). */
  async admitCall(signal: AbortSignal | undefined, onWait: (wait: PacerWait) => void): Promise<void> {
    for (;;) {
      const waitMs = untilRoom(this.refusals, this.rejectionThreshold, this.windowMs, this.clock.now());
      if (waitMs === 0) return;
      this.totals.backoffs += 1;
      onWait({ reason: 'rejection_backoff', waitMs });
      await this.clock.sleep(waitMs, signal);
    }
  }

  /** A refusal by the server (see isRejection). */
  rejected(): void {
    this.totals.rejections += 1;
    this.refusals.push(this.clock.now());
  }

  health(): IpHealth {
    const now = this.clock.now();
    forget(this.logins, this.windowMs, now);
    forget(this.refusals, this.windowMs, now);
    return { loginsInWindow: this.logins.length, rejectionsInWindow: this.refusals.length, ...this.totals };
  }
}

/** Ms until `times` (a sliding window of stamps) holds fewer than `max`; 0 when it already does (or max <= 0). */
function untilRoom(times: number[], max: number, windowMs: number, now: number): number {
  forget(times, windowMs, now);
  if (max <= 0 || times.length < max) return 0;
  const freeing = times[times.length - max] ?? now;
  return Math.max(1, freeing + windowMs - now);
}

function forget(times: number[], windowMs: number, now: number): void {
  while (times.length > 0 && (times[0] ?? now) <= now - windowMs) times.shift();
}
