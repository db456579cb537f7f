// The store's fleet part on a real SQLite file: the fleet row, captain rows updated field by field, orders taken
// once, the event log, shared knowledge, a session's cost since a time, and damaged JSON columns read as {}.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../internal/store/index.js';
import { UsageError } from '../../../internal/shared/index.js';
import { tempDbPath } from './helpers.js';

/** A store on a fresh file whose clock the test sets. */
async function fileStore(): Promise<{ store: Store; file: string; setNow: (ms: number) => void }> {
  const { file } = tempDbPath();
  let now = 1_000;
  const store = await openStore({ path: file, now: () => now });
  return {
    store,
    file,
    setNow: (ms) => {
      now = ms;
    },
  };
}

const fleetInput = { name: 'miners', file: '/fleets/miners.yaml', pid: 4242, host: 'box' };

describe('fleet rows', () => {
  it('startFleet creates a running fleet; stopFleet marks it stopped; getFleet and listFleets read them back', async () => {
    const { store, file, setNow } = await fileStore();
    expect(await store.fleets.getFleet('miners')).toBeUndefined();
    expect(await store.fleets.listFleets()).toEqual([]);
    const started = await store.fleets.startFleet(fleetInput);
    expect(started).toEqual({
      name: 'miners',
      file: '/fleets/miners.yaml',
      state: 'running',
      pid: 4242,
      host: 'box',
      startedAt: 1_000,
      updatedAt: 1_000,
      health: {},
    });
    setNow(2_000);
    await store.fleets.startFleet({ name: 'haulers', file: '/fleets/h.yaml', pid: 7, host: 'box' });
    setNow(3_000);
    await store.fleets.stopFleet('miners');
    expect(await store.fleets.getFleet('miners')).toMatchObject({
      state: 'stopped',
      updatedAt: 3_000,
      startedAt: 1_000,
    });
    expect((await store.fleets.listFleets()).map((fleet) => [fleet.name, fleet.state])).toEqual([
      ['miners', 'stopped'],
      ['haulers', 'running'],
    ]);
    await store.close();

    // What was written is on the file: a second open reads it.
    const again = await openStore({ path: file, now: () => 9_000 });
    expect((await again.fleets.getFleet('haulers'))?.state).toBe('running');
    const restarted = await again.fleets.startFleet({ ...fleetInput, pid: 99, host: 'other' });
    expect(restarted).toMatchObject({ state: 'running', pid: 99, host: 'other', startedAt: 9_000 });
    await again.close();
  });

  it('setHealth stores the broker figures as an object', async () => {
    const { store } = await fileStore();
    await store.fleets.startFleet(fleetInput);
    await store.fleets.setHealth('miners', { logins: 3, refusals: 0, waits: [1, 2] });
    expect((await store.fleets.getFleet('miners'))?.health).toEqual({ logins: 3, refusals: 0, waits: [1, 2] });
    await store.close();
  });
});

describe('captain rows', () => {
  it('upsertCaptain inserts with defaults, then updates only the fields given', async () => {
    const { store, setNow } = await fileStore();
    await store.fleets.startFleet(fleetInput);
    const inserted = await store.fleets.upsertCaptain('miners', 'miner-1', {
      sessionName: 'm1',
      model: 'openai/gpt-4o-mini',
    });
    expect(inserted).toEqual({
      fleet: 'miners',
      name: 'miner-1',
      sessionName: 'm1',
      model: 'openai/gpt-4o-mini',
      state: 'starting',
      ladder: 'model',
      watchdog: 'ok',
      costDay: '',
      costToday: 0,
      credits: null,
      netWorth: null,
      place: null,
      tick: null,
      actions: 0,
      lastAction: null,
      note: null,
      updatedAt: 1_000,
    });
    setNow(2_000);
    await store.fleets.upsertCaptain('miners', 'miner-1', {
      state: 'playing',
      credits: 1200,
      place: 'sol / earth',
      costDay: '2026-11-26',
      costToday: 0.25,
      note: 'fine',
    });
    setNow(3_000);
    const updated = await store.fleets.upsertCaptain('miners', 'miner-1', {
      ladder: 'fallback',
      model: 'openai/gpt-4.1-nano',
      note: null,
    });
    expect(updated).toMatchObject({
      sessionName: 'm1',
      model: 'openai/gpt-4.1-nano',
      state: 'playing',
      ladder: 'fallback',
      watchdog: 'ok',
      credits: 1200,
      place: 'sol / earth',
      costDay: '2026-11-26',
      costToday: 0.25,
      note: null,
      updatedAt: 3_000,
    });
    expect(await store.fleets.captain('miners', 'miner-1')).toEqual(updated);
    expect(await store.fleets.captain('miners', 'nobody')).toBeUndefined();
    await store.close();
  });

  it('a captain inserted with no fields plays its own name as session on the builtin autopilot', async () => {
    const { store } = await fileStore();
    await store.fleets.startFleet(fleetInput);
    expect(await store.fleets.upsertCaptain('miners', 'bare', {})).toMatchObject({
      sessionName: 'bare',
      model: 'builtin/autopilot',
      state: 'starting',
    });
    await store.close();
  });

  it('captains() lists one fleet’s captains by name', async () => {
    const { store } = await fileStore();
    await store.fleets.startFleet(fleetInput);
    await store.fleets.startFleet({ ...fleetInput, name: 'other' });
    for (const name of ['zeta', 'alpha', 'miner-2', 'miner-10']) await store.fleets.upsertCaptain('miners', name, {});
    await store.fleets.upsertCaptain('other', 'beta', {});
    expect((await store.fleets.captains('miners')).map((captain) => captain.name)).toEqual([
      'alpha',
      'miner-10',
      'miner-2',
      'zeta',
    ]);
    expect((await store.fleets.captains('other')).map((captain) => captain.name)).toEqual(['beta']);
    expect(await store.fleets.captains('none')).toEqual([]);
    await store.close();
  });

  it('a captain of a fleet that was never started is a usage error that names the fleet', async () => {
    const { store } = await fileStore();
    await expect(store.fleets.upsertCaptain('ghost', 'a', {})).rejects.toThrow(UsageError);
    await expect(store.fleets.upsertCaptain('ghost', 'a', {})).rejects.toThrow(/no fleet "ghost"/);
    await store.close();
  });
});

describe('orders', () => {
  it('takeOrders hands each order out once, oldest first, and only for its fleet', async () => {
    const { store, setNow } = await fileStore();
    await store.fleets.startFleet(fleetInput);
    const first = await store.fleets.addOrder({ fleet: 'miners', captain: 'miner-1', command: 'park' });
    setNow(1_500);
    await store.fleets.addOrder({ fleet: 'other', captain: 'x', command: 'stop' });
    setNow(2_000);
    const second = await store.fleets.addOrder({
      fleet: 'miners',
      captain: 'miner-2',
      command: 'order',
      text: 'sell the ore',
    });
    expect(first).toEqual({
      id: first.id,
      fleet: 'miners',
      captain: 'miner-1',
      command: 'park',
      text: null,
      createdAt: 1_000,
      takenAt: null,
    });
    expect(second.text).toBe('sell the ore');
    setNow(5_000);
    const taken = await store.fleets.takeOrders('miners');
    expect(taken.map((order) => [order.id, order.command, order.takenAt])).toEqual([
      [first.id, 'park', 5_000],
      [second.id, 'order', 5_000],
    ]);
    expect(await store.fleets.takeOrders('miners')).toEqual([]);
    setNow(6_000);
    const third = await store.fleets.addOrder({ fleet: 'miners', captain: 'miner-1', command: 'resume' });
    expect((await store.fleets.takeOrders('miners')).map((order) => order.id)).toEqual([third.id]);
    expect((await store.fleets.takeOrders('other')).map((order) => order.command)).toEqual(['stop']);
    await store.close();
  });
});

describe('events', () => {
  it('events() pages by afterSeq, filters by captain, caps by limit, oldest first', async () => {
    const { store, setNow } = await fileStore();
    await store.fleets.startFleet(fleetInput);
    const seqs: number[] = [];
    for (let index = 0; index < 6; index++) {
      setNow(10_000 + index);
      const event = await store.fleets.addEvent({
        fleet: 'miners',
        captain: index % 2 === 0 ? 'a' : 'b',
        kind: 'ladder',
        text: `event ${index}`,
        data: { index },
      });
      seqs.push(event.seq);
    }
    await store.fleets.addEvent({ fleet: 'other', kind: 'fleet', text: 'elsewhere' });
    const fleetWide = await store.fleets.addEvent({ fleet: 'miners', kind: 'fleet', text: 'fleet started' });
    expect(fleetWide.captain).toBeNull();
    expect(fleetWide.data).toEqual({});

    const all = await store.fleets.events('miners');
    expect(all.map((event) => event.text)).toEqual([
      'event 0',
      'event 1',
      'event 2',
      'event 3',
      'event 4',
      'event 5',
      'fleet started',
    ]);
    expect(all[1]).toMatchObject({ captain: 'b', kind: 'ladder', data: { index: 1 }, at: 10_001 });
    expect((await store.fleets.events('miners', { afterSeq: seqs[3] })).map((event) => event.text)).toEqual([
      'event 4',
      'event 5',
      'fleet started',
    ]);
    expect((await store.fleets.events('miners', { captain: 'a' })).map((event) => event.text)).toEqual([
      'event 0',
      'event 2',
      'event 4',
    ]);
    expect(
      (await store.fleets.events('miners', { captain: 'b', afterSeq: seqs[1], limit: 1 })).map((event) => event.text),
    ).toEqual(['event 3']);
    expect((await store.fleets.events('miners', { limit: 2 })).map((event) => event.seq)).toEqual(seqs.slice(0, 2));
    await store.close();
  });
});

describe('knowledge', () => {
  it('putKnowledge upserts by (kind, key); knowledge() reads all or one kind', async () => {
    const { store, setNow } = await fileStore();
    await store.fleets.putKnowledge({
      fleet: 'miners',
      kind: 'market',
      key: 'earth',
      value: { ore: 12 },
      captain: 'a',
    });
    await store.fleets.putKnowledge({
      fleet: 'miners',
      kind: 'danger',
      key: 'sirius',
      value: 'pirates',
      captain: 'b',
      at: 500,
    });
    setNow(4_000);
    await store.fleets.putKnowledge({
      fleet: 'miners',
      kind: 'market',
      key: 'earth',
      value: { ore: 15 },
      captain: 'b',
    });
    await store.fleets.putKnowledge({ fleet: 'other', kind: 'market', key: 'mars', value: 1, captain: 'z' });
    expect(await store.fleets.knowledge('miners')).toEqual([
      { fleet: 'miners', kind: 'danger', key: 'sirius', value: 'pirates', captain: 'b', learnedAt: 500 },
      { fleet: 'miners', kind: 'market', key: 'earth', value: { ore: 15 }, captain: 'b', learnedAt: 4_000 },
    ]);
    expect((await store.fleets.knowledge('miners', 'market')).map((record) => record.key)).toEqual(['earth']);
    expect(await store.fleets.knowledge('miners', 'route')).toEqual([]);
    await store.close();
  });

  it('a value of undefined is kept as null rather than failing the write', async () => {
    const { store } = await fileStore();
    await store.fleets.putKnowledge({
      fleet: 'miners',
      kind: 'no-buyers',
      key: 'earth:ore',
      value: undefined,
      captain: 'a',
    });
    expect((await store.fleets.knowledge('miners', 'no-buyers'))[0]?.value).toBeNull();
    await store.close();
  });
});

describe('sessionCostSince', () => {
  it('sums the model cost a session recorded at or after a time', async () => {
    const { store } = await fileStore();
    const session = await store.createSession({ name: 'm1', game: 'embedded', model: 'openai/gpt-4o-mini' });
    const other = await store.createSession({ name: 'm2', game: 'embedded', model: 'openai/gpt-4o-mini' });
    const usage = (
      costUsd: number,
    ): { promptTokens: number; completionTokens: number; cachedTokens: number; costUsd: number } => ({
      promptTokens: 100,
      completionTokens: 10,
      cachedTokens: 0,
      costUsd,
    });
    const midnight = Date.parse('2026-11-26T00:00:00Z');
    await store.recordUsage({ sessionId: session.id, model: 'm', usage: usage(0.5), createdAt: midnight - 1 });
    await store.recordUsage({ sessionId: session.id, model: 'm', usage: usage(0.25), createdAt: midnight });
    await store.recordUsage({
      sessionId: session.id,
      model: 'm',
      usage: usage(0.125),
      createdAt: midnight + 3_600_000,
    });
    await store.recordUsage({ sessionId: other.id, model: 'm', usage: usage(9), createdAt: midnight + 5 });
    expect(await store.fleets.sessionCostSince('m1', midnight)).toBeCloseTo(0.375, 9);
    expect(await store.fleets.sessionCostSince('m1', 0)).toBeCloseTo(0.875, 9);
    expect(await store.fleets.sessionCostSince('m1', midnight + 4_000_000)).toBe(0);
    expect(await store.fleets.sessionCostSince('no-such-session', 0)).toBe(0);
    await store.close();
  });
});

describe('damaged JSON columns', () => {
  it('a fleet’s health and an event’s data that are not JSON objects read as {}', async () => {
    const { store, file } = await fileStore();
    await store.fleets.startFleet(fleetInput);
    const event = await store.fleets.addEvent({ fleet: 'miners', kind: 'broker', text: 'wait', data: { ms: 300 } });
    const second = await store.fleets.addEvent({ fleet: 'miners', kind: 'broker', text: 'wait', data: { ms: 400 } });
    await store.fleets.putKnowledge({ fleet: 'miners', kind: 'market', key: 'earth', value: { ore: 1 }, captain: 'a' });
    const raw = new Database(file);
    raw.prepare('UPDATE fleets SET health = ? WHERE name = ?').run('{"logins": 3', 'miners');
    raw.prepare('UPDATE fleet_events SET data = ? WHERE seq = ?').run('not json', event.seq);
    raw.prepare('UPDATE fleet_events SET data = ? WHERE seq = ?').run('[1, 2]', second.seq);
    raw.prepare('UPDATE fleet_knowledge SET value = ? WHERE key = ?').run('{broken', 'earth');
    raw.close();
    expect((await store.fleets.getFleet('miners'))?.health).toEqual({});
    expect((await store.fleets.listFleets())[0]?.health).toEqual({});
    expect((await store.fleets.events('miners')).map((each) => each.data)).toEqual([{}, {}]);
    expect((await store.fleets.knowledge('miners'))[0]?.value).toBeNull();
    await store.close();
  });
});
