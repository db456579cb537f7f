// Holding a session's lease for a playing command: refused with the holder named, taken from a holder whose pid is
// gone or that let its deadline pass (the old holder told it lost), renewed on a timer that does not keep the process
// alive, released once.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { draftLeaseKey, holdSessionLease, leaseRefusal } from '../../../internal/session/session-lease.js';
import { FatalError, silentLogger } from '../../../internal/shared/index.js';
import { LeaseLostError } from '../../../internal/store/lease-keeper.js';
import { openStore, type LeaseHolder, type Store } from '../../../internal/store/index.js';

const session = { id: 'id-1', name: '2026-11-26-amber-tiger' };
const sessionKey = 'session:id-1';
const holder = (token: string): LeaseHolder => ({ pid: process.pid, host: 'vm', token });

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

function storeAt(clock: { now: number }, processExists?: (pid: number) => boolean): Promise<Store> {
  return openStore({ path: ':memory:', now: () => clock.now, ...(processExists ? { processExists } : {}) });
}

function warningsLogger(): { logger: typeof silentLogger; warnings: string[] } {
  const warnings: string[] = [];
  return {
    warnings,
    logger: { ...silentLogger, warn: (_object: object, message?: string) => void warnings.push(message ?? '') },
  };
}

describe('holdSessionLease', () => {
  it('refuses a session another holder plays with a FatalError (exit 1) naming it', async () => {
    const clock = { now: new Date(2026, 10, 26, 8, 14, 3).getTime() };
    const store = await storeAt(clock);
    const first = await holdSessionLease({ store, session, holder: holder('first') });
    let thrown: unknown;
    try {
      await holdSessionLease({ store, session, holder: holder('second') });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(FatalError);
    expect((thrown as FatalError).exitCode).toBe(1);
    expect((thrown as FatalError).code).toBe('session_leased');
    expect((thrown as FatalError).message).toBe(
      `session 2026-11-26-amber-tiger is being played by another Skipper (pid ${process.pid} on host vm, ` +
        'since 08:14:03); stop that one first, or wait 30 s if it was killed',
    );
    // The refusal changed nothing: the first holder still holds it.
    expect((await store.lease(sessionKey))?.token).toBe('first');
    expect(await first.ensure()).toBe(true);
    await first.release();
    await store.close();
  });

  it('with waitMs, waits for a stalled holder’s deadline and takes it; a deadline past the wait is refused', async () => {
    const clock = { now: 1_000_000 };
    const store = await storeAt(clock);
    // A stalled holder (it never renews again: its pid still exists, so only the deadline frees the session).
    await store.takeLease(sessionKey, holder('stalled'), { ttlMs: 1_200 });
    const slept: number[] = [];
    const sleep = (ms: number): Promise<void> => {
      slept.push(ms);
      clock.now += ms;
      return Promise.resolve();
    };
    const waited = { now: () => clock.now, sleep };
    const taken = await holdSessionLease({ store, session, holder: holder('next'), waitMs: 30_000, ...waited });
    expect(slept).toEqual([1_200 + 250]);
    const lease = await store.lease(sessionKey);
    expect([lease?.token, lease?.fence]).toEqual(['next', 2]);
    // The new holder renews: a deadline beyond the wait is refused without waiting.
    const refused = holdSessionLease({ store, session, holder: holder('third'), waitMs: 20_000, ...waited });
    await expect(refused).rejects.toMatchObject({ code: 'session_leased' });
    expect(slept).toHaveLength(1);
    // Without waitMs, a holder a moment from its deadline is refused at once (the single-session rule).
    await taken.release();
    await store.takeLease(sessionKey, holder('stalled'), { ttlMs: 100 });
    await expect(holdSessionLease({ store, session, holder: holder('now'), ...waited })).rejects.toMatchObject({
      code: 'session_leased',
    });
    expect(slept).toHaveLength(1);
    await store.close();
  });

  it('a wait for the holder’s deadline ends with its signal', async () => {
    const clock = { now: 1_000_000 };
    const store = await storeAt(clock);
    await store.takeLease(sessionKey, holder('stalled'), { ttlMs: 5_000 });
    const controller = new AbortController();
    const sleep = (_ms: number, signal?: AbortSignal): Promise<void> =>
      new Promise((_resolve, reject) => {
        if (signal?.aborted) reject(signal.reason as Error);
        signal?.addEventListener('abort', () => reject(signal.reason as Error));
      });
    const taking = holdSessionLease({
      store,
      session,
      holder: holder('next'),
      waitMs: 30_000,
      signal: controller.signal,
      now: () => clock.now,
      sleep,
    });
    controller.abort(new Error('fleet stopped'));
    await expect(taking).rejects.toThrow('fleet stopped');
    expect((await store.lease(sessionKey))?.token).toBe('stalled');
    await store.close();
  });

  it('renews on its timer, stops renewing and frees the session on release (once)', async () => {
    vi.useFakeTimers();
    const clock = { now: 1_000_000 };
    const store = await storeAt(clock);
    const lease = await holdSessionLease({
      store,
      session,
      holder: holder('first'),
      ttlMs: 30_000,
      renewMs: 10_000,
    });
    for (let step = 0; step < 5; step++) {
      clock.now += 10_000;
      await vi.advanceTimersByTimeAsync(10_000);
    }
    // 50 s after taking it, renewed 0 s ago: still held.
    expect((await store.lease(sessionKey))?.expiresAt).toBe(clock.now + 30_000);
    expect((await store.takeLease(sessionKey, holder('second'), { ttlMs: 30_000 })).taken).toBe(false);
    expect(lease.lost.aborted).toBe(false);
    await lease.release();
    await lease.release();
    expect(vi.getTimerCount()).toBe(0);
    expect(await store.lease(sessionKey)).toBeUndefined();
    expect(await lease.ensure()).toBe(false);
    expect((await store.takeLease(sessionKey, holder('second'), { ttlMs: 30_000 })).taken).toBe(true);
    await store.close();
  });

  it('takes a session at once from a holder on this host whose pid is gone', async () => {
    const gone = new Set<number>();
    const store = await storeAt({ now: 1_000_000 }, (pid) => !gone.has(pid));
    const host = os.hostname();
    const first = await holdSessionLease({ store, session, holder: { pid: 4242, host, token: 'first' } });
    await expect(
      holdSessionLease({ store, session, holder: { pid: process.pid, host, token: 'second' } }),
    ).rejects.toThrow(`is being played by another Skipper (pid 4242 on host ${host},`);
    gone.add(4242); // killed -9: its lease stays in the table, its deadline not yet passed
    const second = await holdSessionLease({ store, session, holder: { pid: process.pid, host, token: 'second' } });
    const now = await store.lease(sessionKey);
    expect(now).toMatchObject({ pid: process.pid, token: 'second' });
    expect(await second.ensure()).toBe(true);
    await first.release();
    await second.release();
    await store.close();
  });

  it('is taken over after its deadline: the old holder is told it lost it, ensure() says false', async () => {
    vi.useFakeTimers(); // no renewal fires: this process is stalled
    const clock = { now: 1_000_000 };
    const store = await storeAt(clock);
    const { logger, warnings } = warningsLogger();
    const first = await holdSessionLease({
      store,
      session,
      holder: holder('first'),
      logger,
      ttlMs: 30_000,
      renewMs: 10_000,
    });
    // Within its deadline nobody else may take it.
    clock.now += 29_000;
    await expect(holdSessionLease({ store, session, holder: holder('second'), ttlMs: 30_000 })).rejects.toThrow(
      FatalError,
    );
    clock.now += 2_000;
    const second = await holdSessionLease({ store, session, holder: holder('second'), ttlMs: 30_000 });
    expect((await store.lease(sessionKey))?.token).toBe('second');
    // The stalled process wakes (its monotonic clock moved on past the renew interval): ensure() renews first, finds
    // the lease taken over, and lets nothing more through.
    const woke = performance.now() + 31_000;
    vi.spyOn(performance, 'now').mockReturnValue(woke);
    expect(first.lost.aborted).toBe(false);
    expect(await first.ensure()).toBe(false);
    expect(first.lost.aborted).toBe(true);
    expect(first.lost.reason).toBeInstanceOf(LeaseLostError);
    expect(warnings).toEqual(['session lease lost: another Skipper took this session over']);
    expect(await first.ensure()).toBe(false);
    // Its release does not free the new holder's lease.
    await first.release();
    expect((await store.lease(sessionKey))?.token).toBe('second');
    expect(await second.ensure()).toBe(true);
    expect(second.lost.aborted).toBe(false);
    await second.release();
    await store.close();
  });

  it('finds out on its renewal timer when it was taken over, and stops renewing', async () => {
    vi.useFakeTimers();
    const clock = { now: 1_000_000 };
    const store = await storeAt(clock);
    const first = await holdSessionLease({ store, session, holder: holder('first'), ttlMs: 30_000, renewMs: 10_000 });
    clock.now += 31_000; // stalled past its deadline: no renewal ran
    const second = await holdSessionLease({ store, session, holder: holder('second'), ttlMs: 30_000 });
    const lost = vi.fn();
    first.lost.addEventListener('abort', lost);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(lost).toHaveBeenCalledTimes(1);
    expect(await first.ensure()).toBe(false);
    const renew = vi.spyOn(store, 'renewLease');
    await second.release();
    renew.mockClear();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(renew).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
    await first.release();
    await store.close();
  });

  it('leases a draft by its name too: a second draft of the same name is refused and keeps nothing', async () => {
    const store = await storeAt({ now: 1_000_000 });
    const lease = await holdSessionLease({ store, session, draft: true, holder: holder('first') });
    expect(draftLeaseKey(session.name)).toBe(`session:name:${session.name}`);
    const twin = { id: 'id-2', name: session.name };
    await expect(holdSessionLease({ store, session: twin, draft: true, holder: holder('second') })).rejects.toThrow(
      /is being played by another Skipper/,
    );
    // The refused run took its own id's lease first; it gave it back on the way out.
    expect(await store.lease('session:id-2')).toBeUndefined();
    expect((await store.takeLease('session:id-2', holder('third'), { ttlMs: 30_000 })).taken).toBe(true);
    expect((await store.takeLease(draftLeaseKey(session.name), holder('third'), { ttlMs: 30_000 })).taken).toBe(false);
    await lease.release();
    expect((await store.takeLease(draftLeaseKey(session.name), holder('third'), { ttlMs: 30_000 })).taken).toBe(true);
    expect((await store.takeLease(sessionKey, holder('third'), { ttlMs: 30_000 })).taken).toBe(true);
    await store.close();
  });

  it('survives a busy database on renew and release: logged, never thrown from the timer or the cleanup', async () => {
    vi.useFakeTimers();
    const store = await storeAt({ now: 1_000_000 });
    const { logger, warnings } = warningsLogger();
    const lease = await holdSessionLease({ store, session, holder: holder('first'), logger, renewMs: 10_000 });
    const busy = (): Promise<never> =>
      Promise.reject(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }));
    vi.spyOn(store, 'renewLease').mockImplementation(busy);
    vi.spyOn(store, 'releaseLease').mockImplementation(busy);
    await vi.advanceTimersByTimeAsync(10_000); // a rejection escaping the timer would fail the run
    await expect(lease.release()).resolves.toBeUndefined();
    expect(warnings).toEqual(['session lease: could not renew it', 'session lease: could not release it']);
    // One failed renewal well within the deadline does not lose the lease.
    expect(lease.lost.aborted).toBe(false);
    await store.close();
  });

  it('words the wait after the deadline it was given', () => {
    const text = leaseRefusal({
      name: 'demo',
      holder: {
        key: 'session:x',
        pid: 7,
        host: 'h',
        token: 't',
        fence: 1,
        takenAt: 0,
        renewedAt: 0,
        expiresAt: 45_000,
      },
      ttlMs: 45_000,
    });
    expect(text).toMatch(/^session demo is being played by another Skipper \(pid 7 on host h, since .*wait 45 s/);
  });
});
