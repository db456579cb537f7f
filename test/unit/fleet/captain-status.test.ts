// A fleet captain's row, kept from its runner's events: written in the background, one write after another in the
// order made (a later state never overtaken by an earlier one), at most once a second unless asked at once, never
// once this process no longer plays the captain (held() false), and a failed write written again with the next.
import { describe, expect, it } from 'vitest';
import { CaptainStatus, type CaptainStatusOptions } from '../../../internal/fleet/captain-status.js';
import type { RunnerEvent } from '../../../internal/session/index.js';
import type { FleetCaptainUpdate } from '../../../internal/store/index.js';
import type { WatchEvent } from '../../../internal/fleet/watchdog.js';

interface Write {
  fleet: string;
  captain: string;
  fields: FleetCaptainUpdate;
  done: boolean;
}

/** A writeCaptain whose writes finish when the test says (`finish(i)`), or at once when `auto`. */
function slowStore(auto = false): {
  store: CaptainStatusOptions['store'];
  writes: Write[];
  finish: (index: number, error?: Error) => void;
} {
  const writes: Write[] = [];
  const ends: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  return {
    writes,
    store: {
      writeCaptain: (fleet, captain, fields) => {
        const write: Write = { fleet, captain, fields: { ...fields }, done: false };
        writes.push(write);
        if (auto) {
          write.done = true;
          return Promise.resolve();
        }
        return new Promise<void>((resolve, reject) => {
          ends.push({
            resolve: () => {
              write.done = true;
              resolve();
            },
            reject,
          });
        });
      },
    },
    finish: (index, error) => (error ? ends[index]!.reject(error) : ends[index]!.resolve()),
  };
}

/** Lets the background writes move on (a few turns of the microtask queue). */
async function drain(): Promise<void> {
  for (let index = 0; index < 10; index++) await Promise.resolve();
}

function status(
  store: CaptainStatusOptions['store'],
  more: Partial<CaptainStatusOptions> = {},
): { status: CaptainStatus; clock: { now: number }; spend: number[]; watched: WatchEvent[] } {
  const clock = { now: 1_000_000 };
  const spend: number[] = [];
  const watched: WatchEvent[] = [];
  const captainStatus = new CaptainStatus({
    fleet: 'miners',
    captain: 'ann',
    store,
    isAction: (name) => name === 'mine',
    tick: () => 7,
    onSpend: (usd) => spend.push(usd),
    onWatch: (event) => watched.push(event),
    now: () => clock.now,
    ...more,
  });
  return { status: captainStatus, clock, spend, watched };
}

const turnEnd: RunnerEvent = {
  type: 'turn-end',
  summary: {
    turn: 1,
    outcome: 'answered',
    rounds: 1,
    toolCalls: 0,
    failedToolCalls: 0,
    usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, costUsd: 0 },
    errorsByCode: {},
    durationMs: 1,
  },
};

describe('CaptainStatus writes', () => {
  it('writes one row after another in the order made: a later state never overtakes an earlier one', async () => {
    const { store, writes, finish } = slowStore();
    const { status: captain } = status(store);
    captain.update({ credits: 100, place: 'sol' });
    captain.flush(true);
    captain.update({ credits: 200 });
    captain.flush(true);
    captain.update({ credits: 300, tick: 9 });
    captain.flush(true);
    await drain();
    // The first write is still on its way: the second has not started beside it.
    expect(writes.map((write) => write.fields)).toEqual([{ credits: 100, place: 'sol' }]);
    let settled = false;
    const waiting = captain.settled().then(() => (settled = true));
    finish(0);
    await drain();
    expect(writes.map((write) => write.fields)).toEqual([{ credits: 100, place: 'sol' }, { credits: 200 }]);
    expect(writes.map((write) => write.done)).toEqual([true, false]);
    expect(settled).toBe(false);
    finish(1);
    await drain();
    expect(writes.map((write) => write.fields)).toEqual([
      { credits: 100, place: 'sol' },
      { credits: 200 },
      { credits: 300, tick: 9 },
    ]);
    expect(settled).toBe(false);
    finish(2);
    await waiting;
    expect(settled).toBe(true);
    expect(writes.every((write) => write.fleet === 'miners' && write.captain === 'ann' && write.done)).toBe(true);
  });

  it('settled() waits for writes made while it waits', async () => {
    const { store, writes, finish } = slowStore();
    const { status: captain } = status(store);
    captain.update({ credits: 1 });
    captain.flush(true);
    let settled = false;
    const waiting = captain.settled().then(() => (settled = true));
    captain.update({ credits: 2 });
    captain.flush(true);
    await drain();
    finish(0);
    await drain();
    expect(settled).toBe(false);
    finish(1);
    await waiting;
    expect(writes.map((write) => write.fields.credits)).toEqual([1, 2]);
  });

  it('writes nothing once held() is false (the lease lost), not even what was waiting', async () => {
    const { store, writes } = slowStore(true);
    let held = true;
    const { status: captain } = status(store, { held: () => held });
    captain.update({ credits: 100 });
    captain.flush(true);
    await captain.settled();
    expect(writes.map((write) => write.fields)).toEqual([{ credits: 100 }]);
    held = false;
    captain.update({ credits: 200, note: 'still here' });
    captain.flush(true);
    captain.listener({ type: 'state', state: { credits: 250 } });
    captain.listener(turnEnd);
    captain.flush(true);
    await captain.settled();
    await drain();
    expect(writes).toHaveLength(1);
  });

  it('a write queued behind a slow one is not written once held() turned false meanwhile', async () => {
    const { store, writes, finish } = slowStore();
    let held = true;
    const { status: captain } = status(store, { held: () => held });
    captain.update({ credits: 100 });
    captain.flush(true);
    captain.update({ credits: 200 });
    captain.flush(true); // queued while held, behind the first
    await drain();
    held = false; // the lease is lost while the first write is on its way
    finish(0);
    await drain();
    await captain.settled();
    expect(writes.map((write) => write.fields)).toEqual([{ credits: 100 }]);
  });

  it('at most once per writeEveryMs unless asked at once; a turn end writes when the interval has passed', async () => {
    const { store, writes } = slowStore(true);
    const { status: captain, clock } = status(store, { writeEveryMs: 1000 });
    captain.flush(true); // nothing changed: nothing written
    captain.update({ credits: 1 });
    captain.flush(false); // the last write is long ago
    await captain.settled();
    expect(writes.map((write) => write.fields)).toEqual([{ credits: 1 }]);
    clock.now += 500;
    captain.update({ credits: 2 });
    captain.listener(turnEnd); // flush(false): too soon
    await captain.settled();
    expect(writes).toHaveLength(1);
    captain.update({ tick: 8 });
    clock.now += 500;
    captain.listener(turnEnd);
    await captain.settled();
    // What waited is merged into one write.
    expect(writes.map((write) => write.fields)).toEqual([{ credits: 1 }, { credits: 2, tick: 8 }]);
    clock.now += 10;
    captain.update({ credits: 3 });
    captain.flush(true);
    await captain.settled();
    expect(writes.map((write) => write.fields)).toEqual([{ credits: 1 }, { credits: 2, tick: 8 }, { credits: 3 }]);
  });

  it('a write that fails is told to onError and written again with the next, newer fields winning', async () => {
    const { store, writes, finish } = slowStore();
    const errors: unknown[] = [];
    const { status: captain } = status(store, { onError: (error) => errors.push(error) });
    captain.update({ credits: 100, place: 'sol' });
    captain.flush(true);
    await drain();
    captain.update({ credits: 150 });
    finish(0, new Error('store_unavailable'));
    await drain();
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('store_unavailable');
    captain.flush(true);
    await drain();
    finish(1);
    await captain.settled();
    expect(writes.map((write) => write.fields)).toEqual([
      { credits: 100, place: 'sol' },
      { credits: 150, place: 'sol' },
    ]);
    expect(errors).toHaveLength(1);
  });
});

describe('CaptainStatus events', () => {
  it('counts the actions that went through, hands the spend on and tells the watchdog', async () => {
    const { store, writes } = slowStore(true);
    const { status: captain, spend, watched } = status(store);
    captain.restore(4);
    const call = { id: 'c1', name: 'mine', arguments: '{}' };
    const message = { id: 'm', role: 'tool' as const, content: 'Mined', createdAt: 0 };
    captain.listener({ type: 'turn-start', turn: 1, input: { kind: 'autoplay', text: 'go' } } as RunnerEvent);
    captain.listener({
      type: 'usage',
      usage: { promptTokens: 1, completionTokens: 1, cachedTokens: 0, costUsd: 0.02 },
      round: 1,
      latencyMs: 5,
      model: 'm',
    });
    captain.listener({ type: 'tool-result', call, message, result: { text: 'Mined', isError: false }, ms: 3 });
    captain.listener({
      type: 'tool-result',
      call: { id: 'c2', name: 'mine', arguments: '{"poi":"belt"}' },
      message,
      result: { text: 'Error', isError: true },
      ms: 3,
    });
    captain.listener({
      type: 'tool-result',
      call: { id: 'c3', name: 'get_status', arguments: '{}' },
      message,
      result: { text: 'ok', isError: false },
      ms: 3,
    });
    captain.listener({ type: 'state', state: { credits: 90, netWorth: 120, systemId: 'sol', poiId: 'belt', tick: 9 } });
    captain.listener(turnEnd);
    await captain.settled();
    expect(captain.actions).toBe(5);
    expect(captain.lastAction).toBe('mine');
    expect(spend).toEqual([0.02]);
    expect(watched.map((event) => event.type)).toEqual(['turn-start', 'call', 'call', 'call', 'state', 'turn-end']);
    expect(watched[1]).toMatchObject({ type: 'call', name: 'mine', action: true, ok: true, tick: 7 });
    expect(watched[2]).toMatchObject({ type: 'call', name: 'mine', action: true, ok: false });
    expect(watched[3]).toMatchObject({ type: 'call', name: 'get_status', action: false, ok: true });
    expect(watched[4]).toMatchObject({ type: 'state', tick: 9, credits: 90 });
    expect(writes.map((write) => write.fields)).toEqual([
      { actions: 5, lastAction: 'mine', credits: 90, netWorth: 120, place: 'sol / belt', tick: 9 },
    ]);
  });
});
