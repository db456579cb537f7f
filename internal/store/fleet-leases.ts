// A fleet's leases as its views read them: where each captain plays (its captain lease's holder) and how many workers
// are alive (each worker holds a `worker:` lease while it runs). A fleet on SQLite is one process: no captain leases,
// and the fleet row says where it runs.
import type { Lease, Store } from './contract.js';
import { leaseKey } from './lease-rules.js';

/** The key of a fleet captain's lease (one worker plays it). */
export function captainLeaseKey(fleet: string, captain: string): string {
  return leaseKey('captain', `${fleet}/${captain}`);
}

/** The key of a fleet worker's presence lease. */
export function workerLeaseKey(fleet: string, token: string): string {
  return leaseKey('worker', `${fleet}/${token}`);
}

/** Where each captain of `fleet` plays now: the holders of its unexpired captain leases, by captain name. */
export async function captainHosts(
  store: Pick<Store, 'leases'>,
  fleet: string,
  now: number = Date.now(),
): Promise<Map<string, Lease>> {
  const prefix = captainLeaseKey(fleet, '');
  const held = (await store.leases(prefix)).filter((lease) => lease.expiresAt > now);
  return new Map(held.map((lease) => [lease.key.slice(prefix.length), lease]));
}

/** The workers of `fleet` alive now (unexpired worker leases); undefined on SQLite, where a fleet is one process. */
export async function liveWorkersOf(
  store: Pick<Store, 'leases' | 'backend'>,
  fleet: string,
  now: number = Date.now(),
): Promise<number | undefined> {
  if (store.backend !== 'postgres') return undefined;
  return (await store.leases(workerLeaseKey(fleet, ''))).filter((lease) => lease.expiresAt > now).length;
}
