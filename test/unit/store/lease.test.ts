// Rule 19: one writer per session. Two store handles on one real SQLite file stand in for two processes.
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import {
  currentLeaseHolder,
  isLeaseStale,
  openStore,
  processExists,
  type LeaseHolder,
  type LeaseRecord,
  type Store,
} from '../../../internal/store/index.js';
import { tempDbPath } from './helpers.js';

const host = os.hostname();

/** Two handles on one file, sharing a clock the test moves. */
function twoHandles(): { first: Store; second: Store; clock: { now: number }; close: () => void } {
  const { file } = tempDbPath();
  const clock = { now: 1_000_000 };
  const first = openStore({ path: file, now: () => clock.now });
  const second = openStore({ path: file, now: () => clock.now });
  return { first, second, clock, close: () => (first.close(), second.close()) };
}

/** A pid that existed a moment ago and is gone now. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  expect(processExists(child.pid)).toBe(false);
  return child.pid;
}

describe('session leases (rule 19)', () => {
  it('takes a free lease and refuses a second holder, naming the first', () => {
    const { first, second, close } = twoHandles();
    const one = currentLeaseHolder();
    const two = currentLeaseHolder();
    const taken = first.takeLease('s1', one);
    expect(taken).toMatchObject({ taken: true, lease: { sessionId: 's1', pid: process.pid, host, token: one.token } });
    const refused = second.takeLease('s1', two);
    expect(refused).toEqual({
      taken: false,
      holder: { sessionId: 's1', pid: process.pid, host, token: one.token, takenAt: 1_000_000, renewedAt: 1_000_000 },
    });
    // Another session is another lease.
    expect(second.takeLease('s2', two).taken).toBe(true);
    close();
  });

  it('lets the holder take its own lease again', () => {
    const { first, close } = twoHandles();
    const one = currentLeaseHolder();
    expect(first.takeLease('s1', one).taken).toBe(true);
    expect(first.takeLease('s1', one).taken).toBe(true);
    close();
  });

  it('frees the lease on release, and only the holder can release it', () => {
    const { first, second, close } = twoHandles();
    const one = currentLeaseHolder();
    const two = currentLeaseHolder();
    first.takeLease('s1', one);
    expect(second.releaseLease('s1', two)).toBe(false);
    expect(second.takeLease('s1', two).taken).toBe(false);
    expect(first.releaseLease('s1', one)).toBe(true);
    expect(second.takeLease('s1', two).taken).toBe(true);
    expect(first.releaseLease('s1', one)).toBe(false);
    close();
  });

  it('keeps a renewed lease, and takes over one not renewed for staleMs', () => {
    const { first, second, clock, close } = twoHandles();
    const one = currentLeaseHolder();
    const two = currentLeaseHolder();
    first.takeLease('s1', one, { staleMs: 30_000 });
    clock.now += 25_000;
    expect(first.renewLease('s1', one)).toBe(true);
    clock.now += 25_000; // 50 s after taking, 25 s after renewing: still held
    expect(second.takeLease('s1', two, { staleMs: 30_000 }).taken).toBe(false);
    clock.now += 5_000; // 30 s without renewal: stale
    const over = second.takeLease('s1', two, { staleMs: 30_000 });
    expect(over).toMatchObject({ taken: true, lease: { token: two.token, takenAt: clock.now, renewedAt: clock.now } });
    // The old holder learns it lost the lease, and cannot release the new one's.
    expect(first.renewLease('s1', one)).toBe(false);
    expect(first.releaseLease('s1', one)).toBe(false);
    expect(second.renewLease('s1', two)).toBe(true);
    close();
  });

  it('takes over at once a lease held on this host by a pid that no longer exists (kill -9)', () => {
    const { first, second, close } = twoHandles();
    const killed: LeaseHolder = { pid: deadPid(), host, token: 'killed' };
    first.takeLease('s1', killed);
    const resumed = second.takeLease('s1', currentLeaseHolder());
    expect(resumed).toMatchObject({ taken: true, lease: { pid: process.pid } });
    close();
  });

  it('sweeps every stale lease when one is taken, not only the one asked for', () => {
    const { first, second, clock, close } = twoHandles();
    first.takeLease('name:killed', { pid: deadPid(), host, token: 'killed' });
    first.takeLease('silent', { pid: process.pid, host, token: 'silent' });
    const live = currentLeaseHolder();
    first.takeLease('live', live);
    clock.now += 30_000;
    first.renewLease('live', live);
    expect(second.takeLease('s1', currentLeaseHolder()).taken).toBe(true);
    // The dead pid's and the silent one's went; the renewed one stays.
    expect(second.takeLease('live', currentLeaseHolder())).toMatchObject({
      taken: false,
      holder: { token: live.token },
    });
    expect(first.releaseLease('name:killed', { pid: 0, host, token: 'killed' })).toBe(false);
    expect(first.releaseLease('silent', { pid: 0, host, token: 'silent' })).toBe(false);
    close();
  });

  it('does not judge pids of another host: their lease waits for staleMs', () => {
    const { first, second, clock, close } = twoHandles();
    first.takeLease('s1', { pid: deadPid(), host: `not-${host}`, token: 'far' });
    expect(second.takeLease('s1', currentLeaseHolder()).taken).toBe(false);
    clock.now += 30_000;
    expect(second.takeLease('s1', currentLeaseHolder()).taken).toBe(true);
    close();
  });

  it('survives closing and reopening the file: a lease is in the database, not the handle', () => {
    const { file } = tempDbPath();
    const one = currentLeaseHolder();
    const writer = openStore({ path: file });
    writer.takeLease('s1', one);
    writer.close();
    const reader = openStore({ path: file });
    expect(reader.takeLease('s1', currentLeaseHolder())).toMatchObject({ taken: false, holder: { token: one.token } });
    reader.close();
  });
});

describe('isLeaseStale', () => {
  const lease: LeaseRecord = { sessionId: 's', pid: 42, host: 'here', token: 't', takenAt: 0, renewedAt: 1_000 };
  const alive = (): boolean => true;
  const dead = (): boolean => false;
  it.each([
    ['fresh, alive', { now: 1_000, host: 'here', processExists: alive }, false],
    ['just under staleMs', { now: 30_999, host: 'here', processExists: alive }, false],
    ['at staleMs', { now: 31_000, host: 'here', processExists: alive }, true],
    ['fresh, pid gone on this host', { now: 1_000, host: 'here', processExists: dead }, true],
    ['fresh, pid "gone" but on another host', { now: 1_000, host: 'there', processExists: dead }, false],
  ])('%s', (_name, options, stale) => {
    expect(isLeaseStale({ lease, staleMs: 30_000, ...options })).toBe(stale);
  });
});
