// A fleet worker (`skipper fleet FILE --db postgres://… --worker`): one of several processes, on one or many hosts,
// that share a fleet's captains through PostgreSQL. Each worker takes free captains (captain leases: an advisory
// lock on its connection, a new epoch) up to its share — the fewer of its broker's share (what one IP carries) and
// an even split among the live workers — plays them as the one-process runner does, and gives each up when it ends.
// A worker that dies frees its captains with its connection; the others take them at their next look and resume
// them from their stored sessions. A worker takes one captain per look (twice a second), so workers started
// together end up with even shares instead of the first one taking everything before the others have joined.
// There is no rebalancing: a worker that joins late takes only free captains.
import type { CaptainLeases, FleetCaptainRecord, Store } from '../store/index.js';
import { sleep, type Logger } from '../shared/index.js';
import type { CaptainResult } from './captain.js';
import type { CaptainSpec, FleetSpec } from './types.js';

export interface FleetWorkerOptions {
  leases: CaptainLeases;
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
  play: (spec: CaptainSpec, signal: AbortSignal) => Promise<CaptainResult>;
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
      const ended = endedCaptains(
        this.options.store.fleets.captains(this.options.spec.name),
        this.options.runStartedAt,
      );
      for (const result of this.results) ended.add(result.name);
      if (ended.size >= this.options.spec.captains.length && this.running.size === 0) break;
      this.takeFree(ended, signal);
      await this.pause(pollMs, signal);
    }
    await Promise.all(this.running.values());
    return this.results;
  }

  private takeFree(ended: ReadonlySet<string>, signal: AbortSignal): void {
    const { spec, leases, logger } = this.options;
    const share = workerShare({
      captains: spec.captains.length,
      liveWorkers: leases.liveWorkers(),
      brokerShare: this.options.brokerShare,
    });
    for (const captain of spec.captains) {
      if (this.running.size >= share) return;
      if (this.running.has(captain.name) || ended.has(captain.name)) continue;
      const lease = leases.tryTake(captain.name, captain.session);
      if (!lease) continue;
      logger.info({ captain: captain.name, epoch: lease.epoch }, 'fleet worker: captain leased');
      this.running.set(captain.name, this.playLeased(captain, signal));
      return;
    }
  }

  private async playLeased(captain: CaptainSpec, signal: AbortSignal): Promise<void> {
    try {
      this.results.push(await this.options.play(captain, signal));
    } finally {
      this.running.delete(captain.name);
      try {
        this.options.leases.release(captain.name);
      } catch (error) {
        // The connection is gone: the server has released the lock with it.
        this.options.logger.warn({ captain: captain.name, error: (error as Error).message }, 'lease release failed');
      }
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
