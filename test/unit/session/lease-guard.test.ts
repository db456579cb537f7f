// A game behind a lease: every call checks the lease first; once it is lost (another Skipper took the captain over)
// nothing reaches the game any more, and the call is answered `lease_lost`.
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LEASE_LOST_TEXT, leaseGuardedGame } from '../../../internal/session/lease-guard.js';
import { holdSessionLease } from '../../../internal/session/session-lease.js';
import type { GameCallOptions, ToolResult } from '../../../internal/shared/index.js';
import { openStore } from '../../../internal/store/index.js';
import { FakeGame } from '../../fakes/fake-game.js';

/** A FakeGame with a captain's log. */
class LoggingGame extends FakeGame {
  readonly entries: string[] = [];
  writeLog(entry: string, _options?: GameCallOptions): Promise<ToolResult | undefined> {
    this.entries.push(entry);
    return Promise.resolve({ text: 'logged', isError: false });
  }
}

function game(): LoggingGame {
  return new LoggingGame([{ name: 'mine', result: 'Mined 3 iron_ore.' }], { label: 'embedded' });
}

/** A lease check that holds until `lose()`. */
function check(): { ensure: () => Promise<boolean>; lose: () => void; asked: () => number } {
  let held = true;
  let asked = 0;
  return {
    ensure: () => {
      asked += 1;
      return Promise.resolve(held);
    },
    lose: () => {
      held = false;
    },
    asked: () => asked,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('leaseGuardedGame', () => {
  it('lets a call through to the game while the lease holds, checking the lease before each', async () => {
    const inner = game();
    const lease = check();
    const guarded = leaseGuardedGame(inner, lease);
    const signal = new AbortController().signal;
    expect(await guarded.call('mine', { amount: 2 }, { signal })).toEqual({
      text: 'Mined 3 iron_ore.',
      isError: false,
    });
    expect(await guarded.call('mine', {})).toEqual({ text: 'Mined 3 iron_ore.', isError: false });
    expect(inner.calls.map((call) => [call.name, call.args])).toEqual([
      ['mine', { amount: 2 }],
      ['mine', {}],
    ]);
    expect(lease.asked()).toBe(2);
    expect(await guarded.writeLog?.('day one')).toEqual({ text: 'logged', isError: false });
    expect(inner.entries).toEqual(['day one']);
    expect(lease.asked()).toBe(3);
    // Everything else is the game's own, bound to it.
    expect(guarded.label).toBe('embedded');
    expect(guarded.specs().map((spec) => spec.name)).toEqual(['mine']);
    expect(await guarded.listTools()).toEqual(inner.specs());
    expect(guarded.username()).toBe(inner.username());
  });

  it('once the lease is lost, answers lease_lost without calling the game', async () => {
    const inner = game();
    const lease = check();
    const guarded = leaseGuardedGame(inner, lease);
    await guarded.call('mine', {});
    lease.lose();
    const answer = await guarded.call('mine', {});
    expect(answer).toEqual({ text: LEASE_LOST_TEXT, isError: true, code: 'lease_lost' });
    expect(answer.text).toMatch(/^lease_lost: another Skipper took this captain over/);
    expect(await guarded.writeLog?.('day two')).toEqual({ text: LEASE_LOST_TEXT, isError: true, code: 'lease_lost' });
    // Only the call made while the lease held reached the game.
    expect(inner.calls).toHaveLength(1);
    expect(inner.entries).toEqual([]);
    expect((await guarded.call('mine', {})).code).toBe('lease_lost');
    expect(inner.calls).toHaveLength(1);
  });

  it('the connection’s own read of the game (fetchEvents) asks the lease too, and reads nothing once it is lost', async () => {
    const reads: Array<{ max?: number } | undefined> = [];
    const inner = Object.assign(game(), {
      fetchEvents: (options?: { max?: number }): Promise<string | undefined> => {
        reads.push(options);
        return Promise.resolve('events: none');
      },
    });
    const lease = check();
    const guarded = leaseGuardedGame(inner, lease);
    expect(await guarded.fetchEvents({ max: 5 })).toBe('events: none');
    expect(lease.asked()).toBe(1);
    lease.lose();
    expect(await guarded.fetchEvents({ max: 5 })).toBeUndefined();
    expect(lease.asked()).toBe(2);
    expect(reads).toEqual([{ max: 5 }]);
    expect(Reflect.get(leaseGuardedGame(game(), check()), 'fetchEvents')).toBeUndefined();
  });

  it('a game without a captain’s log stays without one', () => {
    const guarded = leaseGuardedGame(new FakeGame([{ name: 'mine' }]), check());
    expect(Reflect.get(guarded, 'writeLog')).toBeUndefined();
  });

  it('behind a session lease taken over after its deadline, the stalled process sends nothing more', async () => {
    vi.useFakeTimers(); // this process is stalled: no renewal runs
    const clock = { now: 1_000_000 };
    const store = await openStore({ path: ':memory:', now: () => clock.now });
    const session = { id: 'id-1', name: 'guarded' };
    const first = await holdSessionLease({
      store,
      session,
      holder: { pid: process.pid, host: 'vm', token: 'first' },
      ttlMs: 30_000,
      renewMs: 10_000,
    });
    const inner = game();
    const guarded = leaseGuardedGame(inner, first);
    expect((await guarded.call('mine', {})).isError).toBe(false);
    clock.now += 31_000;
    const second = await holdSessionLease({
      store,
      session,
      holder: { pid: process.pid, host: 'vm', token: 'second' },
      ttlMs: 30_000,
    });
    // It wakes up: its monotonic clock moved on past the renew interval, so the next call renews first.
    vi.spyOn(performance, 'now').mockReturnValue(performance.now() + 31_000);
    const answer = await guarded.call('mine', {});
    expect(answer.code).toBe('lease_lost');
    expect(first.lost.aborted).toBe(true);
    expect(inner.calls).toHaveLength(1);
    await first.release();
    await second.release();
    await store.close();
  });
});
