// Keeping a lease (rule 19) once taken: renewed on an unref'd timer (it never keeps the process alive), checked
// before each action, released at the end. The lease is lost when a renewal finds another holder's fence, or when no
// renewal has succeeded for a whole deadline (the database unreachable: someone else may take it over meanwhile) —
// then `lost` aborts, and whoever acts under the lease stops before acting again. A process that slept (SIGSTOP, a
// laptop lid) wakes with its last renewal older than the interval: `ensure()` renews before it lets it act, and finds
// out it was taken over instead of playing on beside the new holder.
import { performance } from 'node:perf_hooks';
import type { Lease, LeaseHolder, LeaseMethods } from './contract.js';
import { LEASE_RENEW_MS, LEASE_TTL_MS } from './lease-rules.js';

export interface LeaseKeeperOptions {
  ttlMs?: number;
  renewMs?: number;
  /** Told once when the lease is lost, with why. */
  onLost?: (reason: string) => void;
  /** Told when a renewal or the release could not reach the database (the keeper tries again). */
  onError?: (error: unknown, what: 'renew' | 'release') => void;
}

export interface HeldLease {
  readonly key: string;
  /** The lease as last renewed. */
  current(): Lease;
  /** Aborted once the lease is lost (`lost.reason`: why, a sentence). */
  readonly lost: AbortSignal;
  /** Resolves true while the lease holds; renews first when the last renewal is older than the renew interval. */
  ensure(): Promise<boolean>;
  /** Stops renewing and gives the lease up (idempotent; a failure is told to onError, never thrown). */
  release(): Promise<void>;
}

export type KeptLeaseTake = { taken: true; held: HeldLease } | { taken: false; holder: Lease };

/** Takes `key` for `holder` and keeps it until released or lost. */
export async function takeAndKeep(
  store: LeaseMethods,
  key: string,
  holder: LeaseHolder,
  options: LeaseKeeperOptions = {},
): Promise<KeptLeaseTake> {
  const ttlMs = options.ttlMs ?? LEASE_TTL_MS;
  const result = await store.takeLease(key, holder, { ttlMs });
  if (!result.taken) return result;
  return { taken: true, held: new Keeper(store, result.lease, { ...options, ttlMs }) };
}

class Keeper implements HeldLease {
  readonly key: string;
  private lease: Lease;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly ttlMs: number;
  private readonly renewMs: number;
  /** performance.now() of the last renewal that held (this process's monotonic clock: a wall clock may jump). */
  private renewedAt = performance.now();
  private renewing: Promise<void> | undefined;
  private released = false;

  constructor(
    private readonly store: LeaseMethods,
    lease: Lease,
    private readonly options: LeaseKeeperOptions & { ttlMs: number },
  ) {
    this.key = lease.key;
    this.lease = lease;
    this.ttlMs = options.ttlMs;
    this.renewMs = options.renewMs ?? Math.min(LEASE_RENEW_MS, Math.floor(options.ttlMs / 3));
    this.timer = setInterval(() => void this.renew(), this.renewMs);
    this.timer.unref();
  }

  get lost(): AbortSignal {
    return this.controller.signal;
  }

  current(): Lease {
    return this.lease;
  }

  async ensure(): Promise<boolean> {
    if (this.lost.aborted || this.released) return false;
    if (performance.now() - this.renewedAt >= this.renewMs) await this.renew();
    return !this.lost.aborted && !this.released;
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    clearInterval(this.timer);
    await this.renewing?.catch(() => undefined);
    if (this.lost.aborted) return;
    try {
      await this.store.releaseLease(this.lease);
    } catch (error) {
      this.options.onError?.(error, 'release');
    }
  }

  /** One renewal at a time: a timer tick and an ensure() at once share it. */
  private renew(): Promise<void> {
    this.renewing ??= this.renewOnce().finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  private async renewOnce(): Promise<void> {
    if (this.lost.aborted || this.released) return;
    // Measured before the call: a slow renewal must not count as a fresh one from its end.
    const asked = performance.now();
    try {
      const renewed = await this.store.renewLease(this.lease, { ttlMs: this.ttlMs });
      if (this.released) return;
      if (renewed) {
        this.lease = renewed;
        this.renewedAt = asked;
      } else this.lose('another holder took it over (this process stalled past its deadline)');
    } catch (error) {
      this.options.onError?.(error, 'renew');
      if (performance.now() - this.renewedAt >= this.ttlMs)
        this.lose('it could not be renewed for a whole deadline (the database was unreachable)');
    }
  }

  private lose(reason: string): void {
    if (this.lost.aborted) return;
    clearInterval(this.timer);
    this.controller.abort(new LeaseLostError(this.key, reason));
    this.options.onLost?.(reason);
  }
}

/** The reason a lost lease's signal carries. */
export class LeaseLostError extends Error {
  constructor(
    readonly key: string,
    readonly reason: string,
  ) {
    super(`lease ${key} lost: ${reason}`);
    this.name = 'LeaseLostError';
  }
}
