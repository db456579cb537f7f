// A fleet worker (`skipper fleet FILE --db postgres://… --worker`): one of several processes, on one or many hosts,
// that share a fleet's captains through PostgreSQL. Each worker holds a presence lease (`worker:<fleet>/<token>`) while
// it runs — the live workers are the unexpired ones — and takes free captains (`captain:<fleet>/<name>` leases, with
// a deadline and a fencing token: lease-keeper.ts) up to its share: the fewer of its broker's share (what one IP
// carries) and an even split among the live workers. It plays them as the one-process runner does and gives each up
// when it ends. A worker that dies or stalls stops renewing: past the deadline (30 s) another worker takes its
// captains at its next look and resumes them from their stored sessions, and the stalled one, if it wakes, finds the
// fence raised before its next game call and stops (lease-guard.ts). A worker takes one captain per look (twice a
// second), so workers started together end up with even shares instead of the first one taking everything before the
// others have joined. There is no rebalancing: a worker that joins late takes only free captains.
import {
  captainLeaseKey,
  liveWorkersOf,
  takeAndKeep,
  workerLeaseKey,
  type FleetCaptainRecord,
  type HeldLease,
  type LeaseHolder,
  type Store,
} from '../store/index.js';
import { sleep, type Logger } from '../shared/index.js';
import type { CaptainLease } from './captain-session.js';
import type { CaptainResult } from './captain.js';
import type { CaptainSpec, FleetSpec } from './types.js';

/** A worker's leases: its presence among the fleet's workers and the captains it plays. */
export class WorkerLeases {
  private presence: HeldLease | undefined;
  private readonly held = new Map<string, HeldLease>();

  constructor(
    private readonly store: Store,
    private readonly options: { fleet: string; holder: LeaseHolder; logger: Logger; ttlMs?: number; renewMs?: number },
  ) {}

  private keeperOptions(what: string): {
    ttlMs?: number;
    renewMs?: number;
    onLost: (reason: string) => void;
    onError: (error: unknown, step: string) => void;
  } {
    const { logger } = this.options;
    return {
      ...(this.options.ttlMs !== undefined ? { ttlMs: this.options.ttlMs } : {}),
      ...(this.options.renewMs !== undefined ? { renewMs: this.options.renewMs } : {}),
      onLost: (reason) => logger.warn({ lease: what, reason }, 'fleet worker: lease lost'),
      onError: (error, step) =>
        logger.warn(
          { lease: what, error: error instanceof Error ? error.message : String(error) },
          `fleet worker: could not ${step} a lease`,
        ),
    };
  }

  /** Joins the fleet's live workers. */
  async join(): Promise<void> {
    const key = workerLeaseKey(this.options.fleet, this.options.holder.token);
    const taken = await takeAndKeep(this.store, key, this.options.holder, this.keeperOptions('presence'));
    if (taken.taken) this.presence = taken.held;
  }

  /** The fleet's live workers (at least this one). */
  async liveWorkers(): Promise<number> {
    return Math.max(1, (await liveWorkersOf(this.store, this.options.fleet)) ?? 1);
  }

  /** Takes the captain when it is free (or its holder's deadline passed); undefined when another worker holds it. */
  async tryTake(captain: string): Promise<HeldLease | undefined> {
    const key = captainLeaseKey(this.options.fleet, captain);
    const taken = await takeAndKeep(this.store, key, this.options.holder, this.keeperOptions(key));
    if (!taken.taken) return undefined;
    this.held.set(captain, taken.held);
    return taken.held;
  }

  /** The captains this worker holds now (not lost). */
  heldCaptains(): Set<string> {
    return new Set([...this.held].filter(([, lease]) => !lease.lost.aborted).map(([name]) => name));
  }

  async release(captain: string): Promise<void> {
    const lease = this.held.get(captain);
    this.held.delete(captain);
    await lease?.release();
  }

  /** Leaves the fleet: every lease given up. */
  async leave(): Promise<void> {
    await Promise.all([...this.held.keys()].map((captain) => this.release(captain)));
    await this.presence?.release();
    this.presence = undefined;
  }
}

export interface FleetWorkerOptions {
  leases: WorkerLeases;
  /** How often a worker looks for a free captain to take (default 500 ms). */
  pollMs?: number;
}

/** Captains a worker may hold: its broker's share, and no more than an even split among the live workers. */
export function workerShare(options: { captains: number; liveWorkers: number; brokerShare: number }): number {
  return Math.min(options.brokerShare, Math.ceil(options.captains / Math.max(1, options.liveWorkers)));
}

/** Ended for this run of the fleet, by any worker: nobody takes it again until the fleet starts anew. */
const endStates = new Set(['finished', 'failed', 'stopped']);

export function endedCaptains(rows: readonly FleetCaptainRecord[], runStartedAt: number): Set<string> {
  return new Set(
    rows.filter((row) => endStates.has(row.state) && row.updatedAt >= runStartedAt).map((row) => row.name),
  );
}

export interface WorkerLoopOptions extends FleetWorkerOptions {
  spec: FleetSpec;
  store: Store;
  brokerShare: number;
  logger: Logger;
  /** Plays one leased captain to its end; never throws. */
  play: (spec: CaptainSpec, signal: AbortSignal, lease: CaptainLease) => Promise<CaptainResult>;
  /** The fleet run this worker joined began then (captains ended before it play again). */
  runStartedAt: number;
}

export class WorkerLoop {
  private readonly running = new Map<string, Promise<void>>();
  readonly results: CaptainResult[] = [];
  private wake: (() => void) | undefined;

  constructor(private readonly options: WorkerLoopOptions) {}

  /** Takes and plays captains until every captain of the fleet has ended, or `signal`. */
  async run(signal: AbortSignal): Promise<CaptainResult[]> {
    const pollMs = this.options.pollMs ?? 500;
    // Workers started together see each other before they count shares.
    await sleep(pollMs, signal).catch(() => undefined);
    while (!signal.aborted) {
      try {
        if (await this.look(signal)) break;
      } catch (error) {
        // The database away: nothing is taken meanwhile; the captains playing stop on their own if it stays away.
        this.options.logger.warn(
          { error: error instanceof Error ? error.message : String(error) },
          'fleet worker: look failed',
        );
      }
      await this.pause(pollMs, signal);
    }
    await Promise.all(this.running.values());
    return this.results;
  }

  /** One look: true when every captain of the fleet has ended. */
  private async look(signal: AbortSignal): Promise<boolean> {
    const ended = endedCaptains(
      await this.options.store.fleets.captains(this.options.spec.name),
      this.options.runStartedAt,
    );
    for (const result of this.results) ended.add(result.name);
    // A captain this worker lost to another (it stalled past its deadline) is that worker's now: not taken back.
    if (ended.size >= this.options.spec.captains.length && this.running.size === 0) return true;
    await this.takeFree(ended, signal);
    return false;
  }

  private async takeFree(ended: ReadonlySet<string>, signal: AbortSignal): Promise<void> {
    const { spec, leases, logger } = this.options;
    const share = workerShare({
      captains: spec.captains.length,
      liveWorkers: await leases.liveWorkers(),
      brokerShare: this.options.brokerShare,
    });
    for (const captain of spec.captains) {
      if (this.running.size >= share) return;
      if (this.running.has(captain.name) || ended.has(captain.name)) continue;
      const lease = await leases.tryTake(captain.name);
      if (!lease) continue;
      logger.info({ captain: captain.name, fence: lease.current().fence }, 'fleet worker: captain leased');
      this.running.set(captain.name, this.playLeased(captain, signal, lease));
      return;
    }
  }

  private async playLeased(captain: CaptainSpec, signal: AbortSignal, lease: HeldLease): Promise<void> {
    try {
      const result = await this.options.play(captain, signal, lease);
      // Lost to another worker: that worker reports it; this one neither counts it ended nor takes it back.
      if (!lease.lost.aborted) this.results.push(result);
    } finally {
      this.running.delete(captain.name);
      await this.options.leases.release(captain.name);
      this.wake?.();
    }
  }

  /** Until the next look, a captain's end, or the signal. */
  private async pause(ms: number, signal: AbortSignal): Promise<void> {
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
  }
}
