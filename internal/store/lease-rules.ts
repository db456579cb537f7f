// The lease rules both backends follow (rule 19), as pure functions: when a lease may be taken, what a take makes of
// the row, whether a renewal still holds. A lease has a deadline its holder moves on by renewing; past it anyone may
// take it over, and each take raises the fence, so a holder that slept (SIGSTOP, a laptop lid, a partition) through
// its deadline finds the lease gone at its next renewal and stops before it acts again. A lease held on this host by
// a pid that no longer exists may be taken at once (a resume after kill -9 need not wait for the deadline).
import type { Lease, LeaseHolder } from './contract.js';

/** How long a lease holds without a renewal: another holder may take it after this. */
export const LEASE_TTL_MS = 30_000;
/** How often a holder renews: a third of the deadline, so two missed renewals still keep it. */
export const LEASE_RENEW_MS = 10_000;

export function leaseKey(kind: 'session' | 'account' | 'captain' | 'worker', id: string): string {
  return `${kind}:${id}`;
}

/** Whether `current` may be given to `holder` at `now`. */
export function mayTake(options: {
  current: Lease | undefined;
  holder: LeaseHolder;
  now: number;
  /** This process's host, and whether a pid exists on it. */
  host: string;
  processExists: (pid: number) => boolean;
}): boolean {
  const { current, holder, now } = options;
  if (!current) return true;
  if (current.token === holder.token) return true;
  if (current.expiresAt <= now) return true;
  return current.host === options.host && !options.processExists(current.pid);
}

/** The row a take writes: the same fence for the same holder (a re-take), one higher for anyone else. */
export function takenLease(options: {
  key: string;
  current: Lease | undefined;
  holder: LeaseHolder;
  now: number;
  ttlMs: number;
}): Lease {
  const { key, current, holder, now, ttlMs } = options;
  const same = current?.token === holder.token;
  return {
    key,
    pid: holder.pid,
    host: holder.host,
    token: holder.token,
    fence: same ? current.fence : (current?.fence ?? 0) + 1,
    takenAt: same ? current.takenAt : now,
    renewedAt: now,
    expiresAt: now + ttlMs,
  };
}

/** Whether `mine` is still the lease `current` is (same holder, same fence). */
export function stillHeld(mine: Lease, current: Lease | undefined): boolean {
  return current !== undefined && current.token === mine.token && current.fence === mine.fence;
}
