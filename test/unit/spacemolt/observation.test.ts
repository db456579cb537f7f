// The observation schemas: whatever the game layer reads from SpaceMolt's text fits them (so a stored message reads
// back as it was written), and stored data that does not fit costs only the piece that does not.
import { describe, expect, it } from 'vitest';
import { readObservation } from '../../../internal/game/text/observe.js';
import { buildContext } from '../../../internal/llm/index.js';
import type { Message } from '../../../internal/shared/index.js';
import {
  detailsOf,
  hasDetails,
  observationOf,
  observeAsOriginal,
  ticksInDetails,
  type GameOp,
} from '../../../internal/spacemolt/index.js';
import * as S from '../../fixtures/spacemolt/text-samples.js';

const SAMPLES: Array<[GameOp, string]> = [
  ['get_status', S.STATUS_DOCKED],
  ['get_status', S.STATUS_UNDOCKED],
  ['get_status', S.STATUS_IN_TRANSIT],
  ['get_system', S.GET_SYSTEM],
  ['get_poi', S.GET_POI],
  ['get_map', S.GET_MAP],
  ['find_route', S.FIND_ROUTE],
  ['view_market', S.VIEW_MARKET],
  ['get_cargo', S.GET_CARGO],
  ['get_skills', S.GET_SKILLS],
  ['get_notifications', S.GET_NOTIFICATIONS],
  ['get_notifications', S.NO_NOTIFICATIONS],
  ['mine', S.MINE],
  ['sell', S.SELL],
  ['buy', S.BUY],
  ['travel', S.TRAVEL],
  ['jump', S.JUMP],
  ['dock', S.DOCK],
  ['register', S.REGISTER],
  ['login', S.LOGIN],
];

describe('what the game layer reads fits the schemas', () => {
  it('reads back every sample as it was written, details included', () => {
    for (const [op, text] of SAMPLES) {
      // Stored as JSON, read back as a stored message would be.
      const written = readObservation(op, text, false);
      const stored = JSON.parse(JSON.stringify(written)) as { details?: unknown };
      expect(observationOf(stored), op).toEqual(written);
      if (hasDetails(op) && written.details !== undefined)
        expect(detailsOf(op, stored.details), op).toEqual(written.details);
    }
  });

  it('reads back errors with their codes', () => {
    const written = readObservation('mine', S.ERROR_RATE_LIMITED, true);
    expect(observationOf(JSON.parse(JSON.stringify(written)))).toEqual({
      op: 'mine',
      error: { code: 'rate_limited', message: written.error?.message, retry_after: 12 },
    });
  });
});

describe('observationOf on stored data', () => {
  it('keeps partial pieces (older versions and other games stored less) and drops only the pieces that do not fit', () => {
    const data = {
      player: { credits: 120 },
      ship: { fuel: 'lots', max_fuel: 100 },
      location: { system_name: 'Sol', docked: false },
      cargo: [{ item_id: 'iron_ore', quantity: 3 }],
      tick: 'soon',
      op: 'not_an_op',
      error: { code: 'no_fuel' },
      extra: { anything: true },
    };
    expect(observationOf(data)).toEqual({
      player: { credits: 120 },
      location: { system_name: 'Sol', docked: false },
      cargo: [{ item_id: 'iron_ore', quantity: 3 }],
      error: { code: 'no_fuel', message: '' },
    });
  });

  it('reads anything that is not an object as nothing, never throws', () => {
    for (const data of [undefined, null, 'text', 42, [1, 2], { player: null, ship: [] }])
      expect(observationOf(data)).toEqual({});
  });

  it('works a data object out once and hands out a frozen answer', () => {
    const data = { player: { username: 'nova', credits: 5 } };
    const first = observationOf(data);
    expect(observationOf(data)).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.player)).toBe(true);
    expect(Object.isFrozen(data.player)).toBe(false);
  });

  it('reads a context copy of stored data as its original, worked out once for both', () => {
    const stored: Message = {
      id: 't1',
      role: 'tool',
      content: 'Mined 8 Iron Ore.',
      toolCallId: 'c1',
      toolName: 'mine',
      data: { op: 'mine', player: { username: 'nova', credits: 5 }, details: { resource_id: 'iron_ore', quantity: 8 } },
      createdAt: 1,
    };
    const call: Message = {
      id: 'a1',
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'mine', arguments: '{}' }],
      createdAt: 0,
    };
    const history = [call, stored];
    const context = buildContext({ history, systemPrompt: 's', budgetTokens: 10_000, currentTurnStart: 0 });
    const copy = context.find((message) => message.id === 't1')!;
    expect(copy.data).not.toBe(stored.data);
    expect(observationOf(copy.data)).toBe(observationOf(stored.data));
    expect(observationOf(copy.data).player).toEqual({ username: 'nova', credits: 5 });
    // A copy already read keeps its own answer; anything not an object is left alone.
    const read = { player: { credits: 1 } };
    const own = observationOf(read);
    observeAsOriginal(read, stored.data);
    expect(observationOf(read)).toBe(own);
    observeAsOriginal('text', stored.data);
    expect(observationOf('text')).toEqual({});
  });
});

describe('detailsOf', () => {
  it('checks details against the op that asked for them', () => {
    const mined = { resource_id: 'iron_ore', quantity: 5 };
    expect(detailsOf('mine', mined)).toEqual(mined);
    expect(detailsOf('sell', mined)).toBeUndefined();
    expect(detailsOf('mine', { resource_id: 'iron_ore' })).toBeUndefined();
    expect(detailsOf('get_map', { systems: [{ id: 'sol' }, { name: 'no id' }] })).toBeUndefined();
    expect(detailsOf('get_map', { systems: [{ id: 'sol' }] })).toEqual({ systems: [{ id: 'sol' }] });
    expect(detailsOf('register', { player_id: 'p1', password: 'secret' })).toEqual({ player_id: 'p1' });
  });

  it('ticksInDetails reads the ticks an action says it took', () => {
    expect(ticksInDetails({ arrived_at: 'sol_belt', ticks: 3, auto_undocked: false })).toBe(3);
    expect(ticksInDetails({ arrived_system: 'nexus', ticks: 6 })).toBe(6);
    expect(ticksInDetails({ resource_id: 'iron_ore', quantity: 5 })).toBeUndefined();
    expect(ticksInDetails({ ticks: 'three' })).toBeUndefined();
    expect(ticksInDetails(undefined)).toBeUndefined();
  });
});
