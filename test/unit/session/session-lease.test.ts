// Holding a session's lease for a playing command: refused with the holder named, renewed on a timer that does not
// keep the process alive, released once.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { draftLeaseKey, holdSessionLease, leaseRefusal } from '../../../internal/session/session-lease.js';
import { FatalError, silentLogger } from '../../../internal/shared/index.js';
import { openStore, type LeaseHolder, type Store } from '../../../internal/store/index.js';

const session = { id: 'id-1', name: '2026-11-26-amber-tiger' };
const holder = (token: string): LeaseHolder => ({ pid: process.pid, host: 'vm', token });

afterEach(() => {
  vi.useRealTimers();
});

function storeAt(clock: { now: number }): Store {
  return openStore({ path: ':memory:', now: () => clock.now });
}

describe('holdSessionLease', () => {
  it('refuses a session another holder plays with a FatalError (exit 1) naming it', () => {
    const clock = { now: new Date(2026, 10, 26, 8, 14, 3).getTime() };
    const store = storeAt(clock);
    holdSessionLease({ store, session, holder: holder('first') });
    let thrown: unknown;
    try {
      holdSessionLease({ store, session, holder: holder('second') });
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
    store.close();
  });

  it('renews on its timer, stops renewing and frees the session on release (once)', () => {
    vi.useFakeTimers();
    const clock = { now: 1_000_000 };
    const store = storeAt(clock);
    const release = holdSessionLease({ store, session, holder: holder('first'), staleMs: 30_000, renewMs: 10_000 });
    for (let step = 0; step < 5; step++) {
      clock.now += 10_000;
      vi.advanceTimersByTime(10_000);
    }
    // 50 s after taking it, renewed 0 s ago: still held.
    expect(store.takeLease(session.id, holder('second'), { staleMs: 30_000 }).taken).toBe(false);
    release();
    release();
    expect(vi.getTimerCount()).toBe(0);
    expect(store.takeLease(session.id, holder('second')).taken).toBe(true);
    store.close();
  });

  it('leases a draft by its name too: a second draft of the same name is refused and keeps nothing', () => {
    const store = storeAt({ now: 1_000_000 });
    const release = holdSessionLease({ store, session, draft: true, holder: holder('first') });
    const twin = { id: 'id-2', name: session.name };
    expect(() => holdSessionLease({ store, session: twin, draft: true, holder: holder('second') })).toThrow(
      /is being played by another Skipper/,
    );
    // The refused run took its own id's lease first; it gave it back on the way out.
    expect(store.takeLease(twin.id, holder('third')).taken).toBe(true);
    expect(store.takeLease(draftLeaseKey(session.name), holder('third')).taken).toBe(false);
    release();
    expect(store.takeLease(draftLeaseKey(session.name), holder('third')).taken).toBe(true);
    expect(store.takeLease(session.id, holder('third')).taken).toBe(true);
    store.close();
  });

  it('survives a busy database on renew and release: logged, never thrown from the timer or the cleanup', () => {
    vi.useFakeTimers();
    const store = storeAt({ now: 1_000_000 });
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (_object: object, message?: string) => void warnings.push(message ?? '') };
    const release = holdSessionLease({ store, session, holder: holder('first'), logger, renewMs: 10_000 });
    const busy = (): never => {
      throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    };
    vi.spyOn(store, 'renewLease').mockImplementation(busy);
    vi.spyOn(store, 'releaseLease').mockImplementation(busy);
    expect(() => vi.advanceTimersByTime(10_000)).not.toThrow();
    expect(() => release()).not.toThrow();
    expect(warnings).toEqual(['session lease: could not renew it', 'session lease: could not release it']);
    store.close();
  });

  it('words the wait after the stale time it was given', () => {
    const text = leaseRefusal({
      name: 'demo',
      holder: { sessionId: 'x', pid: 7, host: 'h', token: 't', takenAt: 0, renewedAt: 0 },
      staleMs: 45_000,
    });
    expect(text).toMatch(/^session demo is being played by another Skipper \(pid 7 on host h, since .*wait 45 s/);
  });
});
