// The replay's steps (internal/web/replay.ts) on a real SQLite file: one step per stored state change — consecutive
// identical states folded, with the turns and ticks they span — each carrying that moment's state only, places as
// the game's names (never ids), the actions of its turns in words with their result, and the places the ship passed
// through; served by the web server at /api/sessions/:id/replay in snake_case.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppendableMessage } from '../../../internal/store/index.js';
import { openStore, type SnapshotInput, type Store } from '../../../internal/store/index.js';
import { Galaxy } from '../../../internal/web/galaxy.js';
import { replaySteps, sessionReplay } from '../../../internal/web/replay.js';
import { startWebServer } from '../../../internal/web/index.js';

const dir = mkdtempSync(join(tmpdir(), 'skipper-web-replay-'));
let store: Store;
let sessionId: string;

const base = {
  tick: 0,
  credits: 100,
  netWorth: 100,
  fuel: 100,
  maxFuel: 100,
  cargoUsed: 0,
  cargoCapacity: 50,
  hull: 100,
  maxHull: 100,
  systemId: 'sol',
  poiId: 'sol_central',
  docked: true,
};

// Turn by turn: the state stored at its end. Turns 2-3 only looked (the same state as turn 1), turn 5 too.
const STATES: Array<Partial<typeof base>> = [
  {},
  { tick: 4, systemId: 'sol', poiId: 'sol_belt', docked: false, fuel: 98 },
  { tick: 5, systemId: 'sol', poiId: 'sol_belt', docked: false, fuel: 98 },
  { tick: 6, systemId: 'sol', poiId: 'sol_belt', docked: false, fuel: 98 },
  { tick: 10, systemId: 'sol', poiId: 'sol_belt', docked: false, fuel: 98, cargoUsed: 12, netWorth: 160 },
  { tick: 11, systemId: 'sol', poiId: 'sol_belt', docked: false, fuel: 98, cargoUsed: 12, netWorth: 160 },
  { tick: 20, systemId: 'alpha', poiId: 'alpha_station', docked: true, fuel: 90, credits: 160, netWorth: 160 },
];

const tool = (turn: number, id: string, data: unknown, content = 'ok'): AppendableMessage => ({
  role: 'tool',
  content,
  toolCallId: id,
  toolName: 'spacemolt',
  data,
  turn,
});
const call = (turn: number, id: string, args: Record<string, unknown>): AppendableMessage => ({
  role: 'assistant',
  content: '',
  toolCalls: [{ id, name: 'spacemolt', arguments: JSON.stringify(args) }],
  turn,
});

async function fill(target: Store): Promise<string> {
  const session = await target.createSession({ name: 'vega', game: 'embedded', model: 'builtin/autopilot' });
  const id = session.id;
  const messages: AppendableMessage[] = [
    call(1, 'a', { action: 'get_system' }),
    tool(1, 'a', {
      op: 'get_system',
      details: {
        system: {
          id: 'sol',
          name: 'Sol',
          pois: [
            { id: 'sol_central', name: 'Sol Central', type: 'station', has_base: true },
            { id: 'sol_belt', name: 'Sol Asteroid Belt', type: 'asteroid_belt', has_base: false },
          ],
          connections: [{ system_id: 'alpha', name: 'Alpha Centauri' }],
        },
      },
    }),
    call(1, 'b', { action: 'travel', id: 'sol_belt' }),
    tool(1, 'b', { op: 'travel', details: { arrived_at: 'sol_belt' } }),
    call(2, 'c', { action: 'get_status' }),
    tool(2, 'c', { op: 'get_status', location: { system_id: 'sol', poi_id: 'sol_belt' } }),
    call(4, 'd', { action: 'mine' }),
    tool(4, 'd', { op: 'mine', details: { resource_id: 'iron_ore', quantity: 6 } }),
    call(4, 'e', { action: 'mine' }),
    tool(4, 'e', { op: 'mine', details: { resource_id: 'iron_ore', quantity: 6 } }),
    call(5, 'f', { action: 'sell', item_id: 'iron_ore' }),
    tool(5, 'f', { op: 'sell', error: { code: 'not_docked', message: 'dock at a station first' } }, 'not docked'),
    call(6, 'g', { action: 'jump', id: 'alpha' }),
    tool(6, 'g', { op: 'jump', details: { arrived_system: 'alpha', arrived_poi: 'alpha_gate' } }),
    call(6, 'h', { action: 'travel', id: 'alpha_station' }),
    tool(6, 'h', { op: 'travel', details: { arrived_at: 'alpha_station' } }),
    call(6, 'i', { action: 'sell', item_id: 'iron_ore' }),
    tool(6, 'i', { op: 'sell', details: { item_id: 'iron_ore', quantity_sold: 12, total_earned: 60 } }),
  ];
  for (const message of messages) await target.append(id, message);
  for (const [turn, state] of STATES.entries()) {
    const snapshot: SnapshotInput = { ...base, ...state, sessionId: id, turn, createdAt: 1_000_000 + turn * 1000 };
    await target.recordSnapshot(snapshot);
  }
  return id;
}

beforeAll(async () => {
  store = await openStore({ path: join(dir, 'skipper.db') });
  sessionId = await fill(store);
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function galaxyOf(): Galaxy {
  const galaxy = new Galaxy();
  galaxy.ingest({
    id: 'm',
    role: 'tool',
    content: 'map',
    createdAt: 0,
    data: {
      op: 'get_map',
      details: {
        systems: [
          { id: 'sol', name: 'Sol', connections: ['alpha'], has_station: true },
          { id: 'alpha', name: 'Alpha Centauri', connections: ['sol'], has_station: true },
        ],
      },
    },
  });
  return galaxy;
}

describe('the replay of a stored session', () => {
  it('makes one step per stored state change, folding consecutive identical states with the turns they span', async () => {
    const replay = await sessionReplay(store, sessionId, galaxyOf());
    expect(replay.snapshots).toBe(7);
    expect(replay.points).toBe(7);
    expect(replay.steps.map((step) => [step.turn, step.toTurn, step.tick, step.toTick])).toEqual([
      [0, 0, 0, 0],
      [1, 3, 4, 6],
      [4, 5, 10, 11],
      [6, 6, 20, 20],
    ]);
    expect(replay.steps.map((step) => step.index)).toEqual([0, 1, 2, 3]);
  });

  it("carries each moment's own state, with places as the game's names", async () => {
    const [start, belt, mined, sold] = (await sessionReplay(store, sessionId, galaxyOf())).steps;
    expect(start).toMatchObject({ system: 'Sol', poi: 'Sol Central', docked: true, credits: 100, time: 1_000_000 });
    expect(belt).toMatchObject({
      systemId: 'sol',
      system: 'Sol',
      poiId: 'sol_belt',
      poi: 'Sol Asteroid Belt',
      docked: false,
      fuel: 98,
      cargoUsed: 0,
      credits: 100,
      netWorth: 100,
      time: 1_001_000,
    });
    expect(mined).toMatchObject({ cargoUsed: 12, cargoCapacity: 50, netWorth: 160, credits: 100 });
    // A system named only in a jump's answer (alpha_station never named): the id as words, never the id.
    expect(sold).toMatchObject({ system: 'Alpha Centauri', poi: 'Alpha Station', credits: 160, docked: true });
    expect(sold!.at).not.toBeNull();
    expect(start!.at).toEqual(galaxyOf().position('sol', 'sol_central'));
  });

  it('says what the captain did in words with its result, and the path it took', async () => {
    const [start, belt, mined, sold] = (await sessionReplay(store, sessionId, galaxyOf())).steps;
    expect(start!.actions).toEqual([]);
    // Queries (get_system, get_status) are no actions; the travel is worded with the place's name.
    expect(belt!.actions).toEqual([{ turn: 1, text: 'travelled to Sol Asteroid Belt', ok: true, times: 1 }]);
    expect(mined!.actions).toEqual([
      { turn: 4, text: 'mined 6 Iron Ore at Sol Asteroid Belt', ok: true, times: 2 },
      { turn: 5, text: 'could not sell at Sol Asteroid Belt: dock at a station first', ok: false, times: 1 },
    ]);
    expect(sold!.actions.map((action) => action.text)).toEqual([
      'jumped to Alpha Centauri',
      'travelled to Alpha Station',
      'sold 12 Iron Ore for 60 cr at Alpha Station',
    ]);
    expect(sold!.path.map((place) => `${place.system} / ${place.poi}`)).toEqual([
      'Alpha Centauri / Alpha Gate',
      'Alpha Centauri / Alpha Station',
    ]);
    for (const step of [start, belt, mined, sold])
      for (const action of step!.actions) expect(action.text).not.toMatch(/sol_belt|iron_ore|alpha_station|[{}"]/);
  });

  it('starts at the first dashboard when the session stored no start snapshot (a state without a place)', () => {
    const steps = replaySteps({
      points: [
        { turn: 0, tick: 0, credits: 50, netWorth: 50 },
        { turn: 1, tick: 3, credits: 50, netWorth: 50 },
        { turn: 2, tick: 5, credits: 50, netWorth: 50 },
      ],
      snapshots: [1, 2].map((turn) => ({
        ...base,
        credits: 50,
        netWorth: 50,
        tick: turn,
        turn,
        sessionId: 's',
        createdAt: turn,
      })),
      traces: new Map(),
      nameOf: () => undefined,
      position: () => null,
    });
    expect(steps.map((step) => [step.turn, step.toTurn, step.system, step.docked, step.time])).toEqual([
      [0, 0, null, null, null],
      [1, 2, 'Sol', true, 1],
    ]);
  });

  it('is served at /api/sessions/:id/replay in snake_case, paged', async () => {
    const server = await startWebServer({ store, pollMs: 60_000 });
    try {
      const response = await fetch(new URL(`/api/sessions/${sessionId}/replay?offset=1&limit=2`, server.url));
      const body = (await response.json()) as Record<string, any>;
      expect(response.status).toBe(200);
      expect(body).toMatchObject({ total: 4, snapshots: 7, points: 7, offset: 1 });
      expect(body.steps).toHaveLength(2);
      expect(body.steps[0]).toMatchObject({ turn: 1, to_turn: 3, to_tick: 6, net_worth: 100, cargo_used: 0 });
      expect(body.steps[0]).toHaveProperty('poi_id', 'sol_belt');
      expect(body.steps[1].actions[0]).toEqual({
        turn: 4,
        text: 'mined 6 Iron Ore at Sol Asteroid Belt',
        ok: true,
        times: 2,
      });
      expect((await fetch(new URL('/api/sessions/nobody/replay', server.url))).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
