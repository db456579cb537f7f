// The broker: the machine's one share of the game's per-IP limits for a whole fleet. SpaceMolt counts logins and
// registrations per IP (30 a minute) and puts every account of an IP in a timeout after 50 refusals in a minute, so
// the captains of a fleet must spend one budget between them: every game connection of the fleet shares the broker's
// IpPacer (which paces logins and makes every call wait once refusals pass a soft threshold far below 50), captains
// start one after another instead of all at once, and a parked captain's session is renewed before the server lets it
// lapse (30 minutes idle). "IP health" is what is left of the tighter of the two budgets.
import { IpPacer, type IpHealth } from '../game/index.js';
import { sleep } from '../shared/index.js';

export interface BrokerOptions {
  /** Logins + registrations per window (default 30, SpaceMolt's). */
  loginsPerWindow?: number;
  /** Refusals in a window that make the whole fleet wait (default 20; the server times the IP out at 50). */
  rejectionThreshold?: number;
  /** The server's timeout threshold, for the health figure (default 50). */
  rejectionsToTimeout?: number;
  windowMs?: number;
  /** Between two captains' starts (default 250 ms): a fleet never opens 50 connections in the same instant. */
  startGapMs?: number;
  /** A parked captain's session is renewed this often (default 20 minutes; the server drops it after 30 idle). */
  renewMs?: number;
  /**
   * The captains one machine (one IP) carries inside the game's limits: a fleet worker takes at most this many
   * (default 50, what the fleet bench holds on one IP with no timeout).
   */
  captainShare?: number;
  /** An IpPacer shared with other parts (tests pass one with a fake clock). */
  pacer?: IpPacer;
  /**
   * No broker, for comparison (the bench's "without", the test that shows a timeout): each connection paces only
   * itself, as separate processes do, and captains start all at once.
   */
  perConnection?: boolean;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface BrokerHealth extends IpHealth {
  /** 0–100: what is left of the tighter budget (logins, or refusals before a timeout) in the current window. */
  ipHealth: number;
  loginsPerWindow: number;
  captainsStarted: number;
}

export class FleetBroker {
  readonly pacer: IpPacer;
  readonly captainShare: number;
  readonly renewMs: number;
  private readonly loginsPerWindow: number;
  private readonly rejectionsToTimeout: number;
  private readonly startGapMs: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private nextStartAt = 0;
  /** Registrations wait until then: the server refused one and said how long (minimolt allows 10 a minute). */
  private registrationsResumeAt = 0;
  registrationWaits = 0;
  private started = 0;
  private readonly perConnection: boolean;
  private readonly pacerOptions: ConstructorParameters<typeof IpPacer>[0];

  constructor(options: BrokerOptions = {}) {
    this.loginsPerWindow = options.loginsPerWindow ?? 30;
    this.rejectionsToTimeout = options.rejectionsToTimeout ?? 50;
    // The server's minute and ours do not start at the same instant: pacing over a window 5 % longer than its own
    // keeps a login at the edge of our window from landing inside the server's (the first 50-captain bench met one).
    this.pacerOptions = {
      loginsPerWindow: this.loginsPerWindow,
      rejectionThreshold: options.rejectionThreshold ?? 20,
      windowMs: Math.round((options.windowMs ?? 60_000) * 1.05),
    };
    this.pacer = options.pacer ?? new IpPacer(this.pacerOptions);
    this.perConnection = options.perConnection === true;
    this.startGapMs = this.perConnection ? 0 : (options.startGapMs ?? 250);
    this.renewMs = options.renewMs ?? 20 * 60_000;
    this.captainShare = options.captainShare ?? 50;
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? sleep;
  }

  /** The pacer a new game connection uses: the fleet's one (or, without the broker, one of its own). */
  pacerFor(): IpPacer {
    return this.perConnection ? new IpPacer(this.pacerOptions) : this.pacer;
  }

  /** Waits for this captain's turn to start (one every startGapMs, in the order asked). */
  async admitStart(signal?: AbortSignal): Promise<void> {
    const now = this.now();
    const at = Math.max(now, this.nextStartAt);
    this.nextStartAt = at + this.startGapMs;
    if (at > now) await this.sleep(at - now, signal);
    this.started += 1;
  }

  /** Waits while the server has said registrations must pause (a refusal of one is a pause for every captain). */
  async admitRegistration(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const waitMs = this.registrationsResumeAt - this.now();
      if (waitMs <= 0) return;
      this.registrationWaits += 1;
      await this.sleep(waitMs, signal);
    }
  }

  /** The server refused a registration for `waitMs`: no captain of the fleet asks again before then. */
  registrationRefused(waitMs: number): void {
    this.registrationsResumeAt = Math.max(this.registrationsResumeAt, this.now() + waitMs);
  }

  health(): BrokerHealth {
    const health = this.pacer.health();
    const loginsLeft = 1 - health.loginsInWindow / Math.max(1, this.loginsPerWindow);
    const refusalsLeft = 1 - health.rejectionsInWindow / Math.max(1, this.rejectionsToTimeout);
    return {
      ...health,
      ipHealth: Math.max(0, Math.round(100 * Math.min(loginsLeft, refusalsLeft))),
      loginsPerWindow: this.loginsPerWindow,
      captainsStarted: this.started,
    };
  }
}
