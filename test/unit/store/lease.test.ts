// Rule 19: one writer per key. A lease has a deadline its holder moves on by renewing, and a fence each take by
// another holder raises. Two store handles on one real SQLite file stand in for two processes; a clock the test moves
// stands in for the database's. Then the keeper (lease-keeper.ts): renewed on its timer, checked before acting, lost
// when taken over or when no renewal held for a whole deadline.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  LeaseLostError,
  currentLeaseHolder,
  leaseKey,
  openStore,
  processExists,
  takeAndKeep,
  type HeldLease,
  type Lease,
  type LeaseHolder,
  type LeaseMethods,
  type Store,
} from '../../../internal/store/index.js';
import { mayTake } from '../../../internal/store/lease-rules.js';
import { tempDbPath } from './helpers.js';

const host = os.hostname();
const ttlMs = 30_000;
const key = leaseKey('session', 's1');

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Two handles on one file, sharing a clock the test moves; closed after the test. */
async function twoHandles(): Promise<{ first: Store; second: Store; clock: { now: number }; file: string }> {
  const { file } = tempDbPath();
  const clock = { now: 1_000_000 };
  const first = await openStore({ path: file, now: () => clock.now });
  const second = await openStore({ path: file, now: () => clock.now });
  cleanups.push(async () => {
    await first.close();
    await second.close();
  });
  return { first, second, clock, file };
}

/** A pid that existed a moment ago and is gone now. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  expect(processExists(child.pid)).toBe(false);
  return child.pid;
}

/** The lease a take must have given. */
async function taken(store: Store, leaseKeyName: string, holder: LeaseHolder, ttl = ttlMs): Promise<Lease> {
  const result = await store.takeLease(leaseKeyName, holder, { ttlMs: ttl });
  if (!result.taken) throw new Error(`expected to take ${leaseKeyName}, held by ${result.holder.token}`);
  return result.lease;
}

describe('leases (rule 19)', () => {
  it('takes a free key: fence 1, a deadline ttl away, readable from another handle; another key is another lease', async () => {
    const { first, second } = await twoHandles();
    const one = currentLeaseHolder();
    expect(await second.lease(key)).toBeUndefined();
    const result = await first.takeLease(key, one, { ttlMs });
    const lease: Lease = {
      key,
      pid: process.pid,
      host,
      token: one.token,
      fence: 1,
      takenAt: 1_000_000,
      renewedAt: 1_000_000,
      expiresAt: 1_000_000 + ttlMs,
    };
    expect(result).toEqual({ taken: true, lease });
    expect(await second.lease(key)).toEqual(lease);
    const other = leaseKey('session', 's2');
    expect(await second.takeLease(other, currentLeaseHolder(), { ttlMs })).toMatchObject({
      taken: true,
      lease: { key: other, fence: 1 },
    });
  });

  it('lets the same holder take its own lease again: the fence and takenAt stay, the deadline moves on', async () => {
    const { first, second, clock } = await twoHandles();
    const one = currentLeaseHolder();
    const lease = await taken(first, key, one);
    clock.now += 10_000;
    // The same holder through another handle of the process: the token is what counts.
    const again = await second.takeLease(key, one, { ttlMs });
    expect(again).toEqual({
      taken: true,
      lease: { ...lease, renewedAt: clock.now, expiresAt: clock.now + ttlMs },
    });
    // Even past its deadline, while nobody else took it.
    clock.now += ttlMs + 1;
    expect(await first.takeLease(key, one, { ttlMs })).toMatchObject({
      taken: true,
      lease: { fence: lease.fence, takenAt: lease.takenAt, renewedAt: clock.now },
    });
  });

  it('refuses another holder while the lease is unexpired, naming the holder', async () => {
    const { first, second, clock } = await twoHandles();
    const one = currentLeaseHolder();
    const lease = await taken(first, key, one);
    expect(await second.takeLease(key, currentLeaseHolder(), { ttlMs })).toEqual({ taken: false, holder: lease });
    clock.now = lease.expiresAt - 1;
    expect(await second.takeLease(key, currentLeaseHolder(), { ttlMs })).toEqual({ taken: false, holder: lease });
    // A refusal changes nothing.
    expect(await first.lease(key)).toEqual(lease);
  });

  it('keeps a renewed lease, and lets another holder take it at its deadline with the fence raised', async () => {
    const { first, second, clock } = await twoHandles();
    const one = currentLeaseHolder();
    const two = currentLeaseHolder();
    const lease = await taken(first, key, one);
    clock.now += 25_000;
    const renewed = await first.renewLease(lease, { ttlMs });
    expect(renewed).toEqual({ ...lease, renewedAt: clock.now, expiresAt: clock.now + ttlMs });
    clock.now += 25_000; // 50 s after taking, 25 s after renewing: still held
    expect(await second.takeLease(key, two, { ttlMs })).toEqual({ taken: false, holder: renewed });
    clock.now = renewed!.expiresAt; // the deadline: anyone may take it
    const over = await second.takeLease(key, two, { ttlMs });
    expect(over).toEqual({
      taken: true,
      lease: {
        key,
        pid: process.pid,
        host,
        token: two.token,
        fence: lease.fence + 1,
        takenAt: clock.now,
        renewedAt: clock.now,
        expiresAt: clock.now + ttlMs,
      },
    });
    expect(await first.lease(key)).toEqual((over as { lease: Lease }).lease);
  });

  it('resolves undefined when renewing a lease another holder took over, and leaves the new one alone', async () => {
    const { first, second, clock } = await twoHandles();
    const one = currentLeaseHolder();
    const mine = await taken(first, key, one);
    clock.now = mine.expiresAt + 5_000; // the holder slept through its deadline
    const theirs = await taken(second, key, currentLeaseHolder());
    expect(theirs.fence).toBe(mine.fence + 1);
    expect(await first.renewLease(mine, { ttlMs })).toBeUndefined();
    // The new fence under the old holder's token is not the lease either: both must match.
    expect(await first.renewLease({ ...theirs, token: mine.token }, { ttlMs })).toBeUndefined();
    expect(await first.releaseLease(mine)).toBe(false);
    expect(await first.lease(key)).toEqual(theirs);
    expect(await second.renewLease(theirs, { ttlMs })).toEqual({
      ...theirs,
      renewedAt: clock.now,
      expiresAt: clock.now + ttlMs,
    });
  });

  it('takes over at once a lease held on this host by a pid that no longer exists (kill -9)', async () => {
    const { first, second } = await twoHandles();
    const killed: LeaseHolder = { pid: deadPid(), host, token: 'killed' };
    const old = await taken(first, key, killed);
    const resumed = await second.takeLease(key, currentLeaseHolder(), { ttlMs });
    expect(resumed).toMatchObject({ taken: true, lease: { pid: process.pid, fence: old.fence + 1 } });
  });

  it('does not judge pids of another host: their lease waits for its deadline', async () => {
    const { first, second, clock } = await twoHandles();
    const far = await taken(first, key, { pid: deadPid(), host: `not-${host}`, token: 'far' });
    expect(await second.takeLease(key, currentLeaseHolder(), { ttlMs })).toEqual({ taken: false, holder: far });
    clock.now = far.expiresAt;
    expect((await second.takeLease(key, currentLeaseHolder(), { ttlMs })).taken).toBe(true);
  });

  it('frees the lease on release, and only the holder can release it', async () => {
    const { first, second } = await twoHandles();
    const one = currentLeaseHolder();
    const two = currentLeaseHolder();
    const lease = await taken(first, key, one);
    // Another holder naming the same key and fence is not the holder.
    expect(await second.releaseLease({ ...lease, ...two })).toBe(false);
    expect(await second.takeLease(key, two, { ttlMs })).toEqual({ taken: false, holder: lease });
    expect(await first.lease(key)).toEqual(lease);
    expect(await first.releaseLease(lease)).toBe(true);
    expect(await second.lease(key)).toBeUndefined();
    expect(await first.releaseLease(lease)).toBe(false);
    expect(await first.renewLease(lease, { ttlMs })).toBeUndefined();
    expect(await second.takeLease(key, two, { ttlMs })).toMatchObject({ taken: true, lease: { token: two.token } });
  });

  it('of concurrent takes of one key, exactly one wins and the others are told who holds it', async () => {
    const { file } = tempDbPath();
    const stores = await Promise.all(Array.from({ length: 6 }, () => openStore({ path: file })));
    cleanups.push(async () => {
      for (const store of stores) await store.close();
    });
    const holders = stores.map(() => currentLeaseHolder());
    const results = await Promise.all(stores.map((store, index) => store.takeLease(key, holders[index]!, { ttlMs })));
    const winners = results.filter((result) => result.taken);
    expect(winners).toHaveLength(1);
    const winner = (winners[0] as { lease: Lease }).lease;
    expect(winner.fence).toBe(1);
    for (const result of results) if (!result.taken) expect(result).toEqual({ taken: false, holder: winner });
    expect(await stores[0]!.lease(key)).toEqual(winner);
  });

  it('lists the leases under a prefix, by key', async () => {
    const { first, second } = await twoHandles();
    const captain = (name: string): string => leaseKey('captain', `miners/${name}`);
    await taken(first, captain('zeta'), currentLeaseHolder());
    await taken(second, captain('alpha'), currentLeaseHolder());
    await taken(first, leaseKey('captain', 'haulers/beta'), currentLeaseHolder());
    await taken(first, key, currentLeaseHolder());
    expect((await second.leases('captain:miners/')).map((lease) => lease.key)).toEqual([
      captain('alpha'),
      captain('zeta'),
    ]);
    expect(await second.leases('worker:')).toEqual([]);
  });

  it('survives closing and reopening the file: a lease is in the database, not the handle', async () => {
    const { file } = tempDbPath();
    const one = currentLeaseHolder();
    const writer = await openStore({ path: file });
    const lease = await taken(writer, key, one);
    await writer.close();
    const reader = await openStore({ path: file });
    cleanups.push(() => reader.close());
    expect(await reader.takeLease(key, currentLeaseHolder(), { ttlMs })).toEqual({ taken: false, holder: lease });
  });
});

describe('mayTake', () => {
  const lease: Lease = {
    key: 's',
    pid: 42,
    host: 'here',
    token: 't',
    fence: 3,
    takenAt: 0,
    renewedAt: 1_000,
    expiresAt: 31_000,
  };
  const holder: LeaseHolder = { pid: 7, host: 'here', token: 'other' };
  const alive = (): boolean => true;
  const dead = (): boolean => false;
  it.each([
    ['free', { current: undefined, now: 1_000, host: 'here', processExists: alive }, true],
    ['fresh, alive', { current: lease, now: 1_000, host: 'here', processExists: alive }, false],
    ['just under the deadline', { current: lease, now: 30_999, host: 'here', processExists: alive }, false],
    ['at the deadline', { current: lease, now: 31_000, host: 'here', processExists: alive }, true],
    ['fresh, pid gone on this host', { current: lease, now: 1_000, host: 'here', processExists: dead }, true],
    [
      'fresh, pid "gone" but on another host',
      { current: lease, now: 1_000, host: 'there', processExists: dead },
      false,
    ],
  ])('%s', (_name, options, free) => {
    expect(mayTake({ holder, ...options })).toBe(free);
  });

  it('gives a holder its own lease back whatever else holds', () => {
    expect(
      mayTake({ current: lease, holder: { ...holder, token: 't' }, now: 0, host: 'here', processExists: alive }),
    ).toBe(true);
  });
});

describe('takeAndKeep (the lease keeper)', () => {
  /** Keeps `held` released after the test, so its timer never outlives it. */
  function kept(result: Awaited<ReturnType<typeof takeAndKeep>>): HeldLease {
    if (!result.taken) throw new Error(`expected the lease, held by ${result.holder.token}`);
    cleanups.push(() => result.held.release());
    return result.held;
  }

  /** performance.now() as the keeper reads it, moved by the test (a process asleep, without waiting). */
  function monotonicClock(): { now: number } {
    const clock = { now: 1_000 };
    vi.spyOn(performance, 'now').mockImplementation(() => clock.now);
    return clock;
  }

  it('takes the lease and renews it on its timer, moving the deadline on', async () => {
    const { file } = tempDbPath();
    const store = await openStore({ path: file });
    cleanups.push(() => store.close());
    const held = kept(await takeAndKeep(store, key, currentLeaseHolder(), { ttlMs: 3_000, renewMs: 20 }));
    const first = held.current();
    expect(await store.lease(key)).toEqual(first);
    await vi.waitFor(
      async () => {
        const now = await store.lease(key);
        expect(now?.renewedAt).toBeGreaterThan(first.renewedAt);
        expect(held.current()).toEqual(now);
      },
      { timeout: 2_000, interval: 10 },
    );
    const renewed = held.current();
    expect(renewed).toMatchObject({ fence: first.fence, takenAt: first.takenAt, token: first.token });
    expect(renewed.expiresAt).toBe(renewed.renewedAt + 3_000);
    expect(held.lost.aborted).toBe(false);
    expect(await held.ensure()).toBe(true);
  });

  it('refuses like takeLease while another holder has it', async () => {
    const { first, second } = await twoHandles();
    const lease = await taken(first, key, currentLeaseHolder());
    expect(await takeAndKeep(second, key, currentLeaseHolder(), { ttlMs })).toEqual({ taken: false, holder: lease });
  });

  it('aborts `lost` when a renewal finds another holder took it over after its deadline', async () => {
    const { first, second, clock } = await twoHandles();
    const reasons: string[] = [];
    const held = kept(
      await takeAndKeep(first, key, currentLeaseHolder(), {
        ttlMs,
        renewMs: 20,
        onLost: (reason) => void reasons.push(reason),
      }),
    );
    const mine = held.current();
    clock.now = mine.expiresAt; // this process stalled past its deadline
    const theirs = await taken(second, key, currentLeaseHolder());
    await vi.waitFor(() => expect(held.lost.aborted).toBe(true), { timeout: 2_000, interval: 10 });
    const reason = held.lost.reason as LeaseLostError;
    expect(reason).toBeInstanceOf(LeaseLostError);
    expect(reason.key).toBe(key);
    expect(reason.message).toContain('another holder took it over');
    expect(reasons).toEqual([reason.reason]);
    expect(await held.ensure()).toBe(false);
    // Releasing a lost lease leaves the new holder's alone.
    await held.release();
    expect(await second.lease(key)).toEqual(theirs);
  });

  it('ensure() renews when the last renewal is older than the interval, and only then', async () => {
    const { first, clock: databaseClock } = await twoHandles();
    const clock = monotonicClock();
    const renewals = vi.spyOn(first, 'renewLease');
    const held = kept(await takeAndKeep(first, key, currentLeaseHolder(), { ttlMs: 180_000, renewMs: 60_000 }));
    const initial = held.current();
    clock.now += 59_999;
    databaseClock.now += 59_999;
    expect(await held.ensure()).toBe(true);
    expect(renewals).not.toHaveBeenCalled();
    expect(held.current()).toEqual(initial);
    clock.now += 1;
    databaseClock.now += 1;
    expect(await held.ensure()).toBe(true);
    expect(renewals).toHaveBeenCalledTimes(1);
    expect(held.current()).toEqual({
      ...initial,
      renewedAt: databaseClock.now,
      expiresAt: databaseClock.now + 180_000,
    });
    expect(await first.lease(key)).toEqual(held.current());
    // Renewed just now: the next ensure() acts at once.
    expect(await held.ensure()).toBe(true);
    expect(renewals).toHaveBeenCalledTimes(1);
  });

  it('ensure() after a stall past the deadline finds the lease taken over and says no', async () => {
    const { first, second, clock: databaseClock } = await twoHandles();
    const clock = monotonicClock();
    const held = kept(await takeAndKeep(first, key, currentLeaseHolder(), { ttlMs: 180_000, renewMs: 60_000 }));
    clock.now += 400_000; // asleep (SIGSTOP, a laptop lid) well past the deadline
    databaseClock.now += 400_000;
    await taken(second, key, currentLeaseHolder());
    expect(await held.ensure()).toBe(false);
    expect(held.lost.aborted).toBe(true);
    expect((held.lost.reason as LeaseLostError).reason).toContain('another holder took it over');
  });

  it('loses the lease when renewals keep failing for a whole deadline, not before', async () => {
    const clock = monotonicClock();
    const lease: Lease = {
      key,
      ...currentLeaseHolder(),
      fence: 1,
      takenAt: 0,
      renewedAt: 0,
      expiresAt: 30_000,
    };
    const down = new Error('database unreachable');
    const store: LeaseMethods = {
      takeLease: vi.fn(() => Promise.resolve({ taken: true as const, lease })),
      renewLease: vi.fn(() => Promise.reject(down)),
      releaseLease: vi.fn(() => Promise.resolve(true)),
      lease: vi.fn(() => Promise.resolve(lease)),
      leases: vi.fn(() => Promise.resolve([lease])),
    };
    const errors: Array<[unknown, string]> = [];
    const reasons: string[] = [];
    const held = kept(
      await takeAndKeep(store, key, lease, {
        ttlMs: 30_000,
        renewMs: 10_000,
        onError: (error, what) => void errors.push([error, what]),
        onLost: (reason) => void reasons.push(reason),
      }),
    );
    clock.now += 10_000;
    expect(await held.ensure()).toBe(true);
    clock.now += 19_999; // 29.999 s without a renewal that held
    expect(await held.ensure()).toBe(true);
    expect(held.lost.aborted).toBe(false);
    expect(errors).toEqual([
      [down, 'renew'],
      [down, 'renew'],
    ]);
    clock.now += 1; // a whole deadline
    expect(await held.ensure()).toBe(false);
    expect(store.renewLease).toHaveBeenCalledTimes(3);
    expect(held.lost.aborted).toBe(true);
    const reason = held.lost.reason as LeaseLostError;
    expect(reason).toBeInstanceOf(LeaseLostError);
    expect(reason.reason).toContain('could not be renewed for a whole deadline');
    expect(reasons).toEqual([reason.reason]);
    // A lost lease is not released: someone else may hold it by now.
    await held.release();
    expect(store.releaseLease).not.toHaveBeenCalled();
  });

  it('release() stops renewing and gives the lease up, once; a failed release is told, not thrown', async () => {
    const { first } = await twoHandles();
    const renewals = vi.spyOn(first, 'renewLease');
    const held = kept(await takeAndKeep(first, key, currentLeaseHolder(), { ttlMs: 3_000, renewMs: 20 }));
    await held.release();
    expect(await first.lease(key)).toBeUndefined();
    expect(await held.ensure()).toBe(false);
    const calls = renewals.mock.calls.length;
    await new Promise((done) => setTimeout(done, 100));
    expect(renewals.mock.calls.length).toBe(calls);
    await held.release();

    const errors: Array<[unknown, string]> = [];
    const broken = new Error('database unreachable');
    vi.spyOn(first, 'releaseLease').mockRejectedValue(broken);
    const again = kept(
      await takeAndKeep(first, key, currentLeaseHolder(), {
        ttlMs: 3_000,
        renewMs: 1_000,
        onError: (error, what) => void errors.push([error, what]),
      }),
    );
    await expect(again.release()).resolves.toBeUndefined();
    expect(errors).toEqual([[broken, 'release']]);
  });
});
