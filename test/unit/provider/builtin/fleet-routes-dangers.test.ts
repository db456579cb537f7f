// Systems and dangers shared by a fleet's autopilots: a system one captain surveyed spares the others' get_system
// there, and harm one captain came to (hull lost) keeps the others' mining loops out of that system while it is
// recent. Each case is played again without the fleet so the test fails if the fleet is not consulted.
import { describe, expect, it } from 'vitest';
import { FleetKnowledge } from '../../../../internal/fleet/shared-knowledge.js';
import { createAutopilotProvider } from '../../../../internal/provider/builtin/index.js';
import type { CompletionResponse, Provider } from '../../../../internal/shared/index.js';
import type { FleetKnowledgePort } from '../../../../internal/spacemolt/index.js';
import {
  Conversation,
  MAP,
  MARKET,
  SOL_BELT,
  SOL_SYSTEM,
  TOOLS,
  WILDS_SYSTEM,
  argsOf,
  dashboard,
  opsOf,
} from './conversation.js';

let time = 5_000_000;
const now = (): number => (time += 1000);

function autopilot(seed: number, fleet?: FleetKnowledgePort): Provider {
  return createAutopilotProvider({ seed, now, ...(fleet ? { fleet } : {}) });
}

const ask = (provider: Provider, conversation: Conversation): Promise<CompletionResponse> =>
  provider.complete({ messages: structuredClone(conversation.messages), tools: TOOLS });

/** Vega: a lawful system next to Sol with a station, known only from the map (not surveyed). */
const MAP_WITH_VEGA = {
  details: {
    systems: [
      { id: 'sol', name: 'Sol', police_level: 100, has_station: true, connections: ['wilds', 'vega'] },
      { id: 'wilds', name: 'Wilds', police_level: 25, has_station: false, connections: ['sol'] },
      { id: 'vega', name: 'Vega', police_level: 100, has_station: true, connections: ['sol'] },
    ],
  },
};

describe('fleet routes: a system a fleet-mate surveyed', () => {
  it('is not asked for again (get_system) and its POIs are known, with the survey published with its captain', async () => {
    const fleet = new FleetKnowledge({ fleet: 'f', now });
    const ann = autopilot(1, fleet.port('ann'));
    await ask(ann, new Conversation().user().result('get_status', dashboard()).result('get_system', SOL_SYSTEM));
    expect(fleet.systems().map((s) => [s.systemId, s.captain, s.pois.map((p) => p.id)])).toEqual([
      ['sol', 'ann', ['sol_central', 'sol_belt']],
    ]);
    expect(fleet.systems()[0]?.connections).toEqual(['wilds']);

    const bobTurn = new Conversation().user().result('get_status', dashboard()).result('get_map', MAP);
    const bob = await ask(autopilot(2, fleet.port('bob')), bobTurn);
    expect(opsOf(bob)).not.toContain('get_system');
    const alone = await ask(autopilot(2), bobTurn);
    expect(opsOf(alone)).toContain('get_system');
  });

  it('leaves a system the captain surveyed itself as it saw it', async () => {
    const fleet = new FleetKnowledge({ fleet: 'f', now });
    // Ann's survey of Sol lists only the station; Bob's own survey (with the belt) must stay.
    fleet.port('ann').publishSystem({
      systemId: 'sol',
      name: 'Sol',
      policeLevel: 100,
      connections: ['wilds'],
      pois: [{ id: 'sol_central', name: 'Sol Central', type: 'station', hasBase: true }],
    });
    const bob = autopilot(2, fleet.port('bob'));
    const turn = new Conversation()
      .user()
      .result('get_status', dashboard({ docked: true }))
      .result('get_map', MAP)
      .result('get_system', SOL_SYSTEM)
      .result('view_market', MARKET)
      .result('get_poi', SOL_BELT);
    await ask(bob, turn);
    expect(fleet.systems().find((s) => s.systemId === 'sol')?.captain).toBe('bob');
    expect(
      fleet
        .systems()
        .find((s) => s.systemId === 'sol')
        ?.pois.map((p) => p.id),
    ).toEqual(['sol_central', 'sol_belt']);
  });
});

const VEGA_SYSTEM = {
  details: {
    system: {
      id: 'vega',
      name: 'Vega',
      police_level: 100,
      pois: [
        { id: 'vega_station', name: 'Vega Station', type: 'station', has_base: true, distance: 5 },
        { id: 'vega_belt', name: 'Vega Belt', type: 'asteroid_belt', has_base: false, distance: 0 },
      ],
      connections: [{ system_id: 'sol', name: 'Sol', distance: 10, police_level: 100 }],
    },
  },
};

const VEGA_BELT = {
  details: { poi: { ...SOL_BELT.details.poi, id: 'vega_belt', name: 'Vega Belt', system_id: 'vega' } },
};

/** Vega Station pays far more for ore than Sol Central (copper: 40 against 14). */
const VEGA_MARKET = {
  details: {
    ...MARKET.details,
    station: { poi_id: 'vega_station', system_id: 'vega', name: 'Vega Station' },
    items: [
      { item_id: 'iron_ore', base_price: 8, bid: 30, ask: 32 },
      { item_id: 'copper_ore', base_price: 12, bid: 40, ask: 44 },
    ],
  },
};

/**
 * A captain that surveyed Vega (its belt, its station's market), came back to Sol and is docked at Sol Central with an empty hold: both
 * systems known to the last deposit, so the loop is chosen on rate alone.
 */
function knowsSolAndVega(): Conversation {
  return new Conversation()
    .user()
    .result('get_status', dashboard({ system: 'vega', poi: 'vega_belt' }))
    .result('get_map', MAP_WITH_VEGA)
    .result('get_system', VEGA_SYSTEM)
    .result('get_poi', VEGA_BELT)
    .result('get_status', dashboard({ system: 'vega', poi: 'vega_station', docked: true }))
    .result('view_market', VEGA_MARKET)
    .result('get_status', dashboard({ docked: true }))
    .result('get_system', SOL_SYSTEM)
    .result('view_market', MARKET)
    .result('get_poi', SOL_BELT);
}

describe('fleet dangers', () => {
  it('publishes the hull a captain lost, in the lawless system it was in, with its age', async () => {
    const fleet = new FleetKnowledge({ fleet: 'f', now });
    const ann = autopilot(1, fleet.port('ann'));
    const turn = new Conversation()
      .user()
      .result('get_status', dashboard({ system: 'wilds', poi: 'wilds_belt', police: 25 }))
      .result('get_system', WILDS_SYSTEM);
    await ask(ann, turn);
    expect(fleet.dangers()).toEqual([]);
    turn
      .user('Autoplay turn 2.')
      .result('get_status', dashboard({ system: 'wilds', poi: 'wilds_belt', police: 25, hull: 70 }));
    await ask(ann, turn);
    expect(fleet.dangers().map((d) => [d.systemId, d.captain, d.what])).toEqual([['wilds', 'ann', '30 hull lost']]);
    // Ann's own harm is not reported back to her; the others see it.
    expect(fleet.port('ann').dangers()).toEqual([]);
    expect(
      fleet
        .port('bob')
        .dangers()
        .map((d) => d.systemId),
    ).toEqual(['wilds']);
    // A repair is not harm.
    turn.user('Autoplay turn 3.').result('get_status', dashboard({ docked: true }));
    await ask(ann, turn);
    expect(fleet.dangers()).toHaveLength(1);
  });

  it("takes a captain's mining loop out of a system where a fleet-mate was just hurt (and not without it)", async () => {
    const fleet = new FleetKnowledge({ fleet: 'f', now, dangerMs: 60_000 });
    const bob = fleet.port('bob');
    // Without a danger (alone, or in a fleet): the loop is Vega's (its better bid), one jump away.
    expect(argsOf(await ask(autopilot(3, bob), knowsSolAndVega())).target).toBe('vega');
    expect(argsOf(await ask(autopilot(3), knowsSolAndVega())).target).toBe('vega');

    fleet.port('ann').publishDanger({ systemId: 'vega', what: '30 hull lost' });
    expect(
      fleet
        .port('bob')
        .dangers()
        .map((d) => d.systemId),
    ).toEqual(['vega']);
    const steered = await ask(autopilot(3, bob), knowsSolAndVega());
    // Vega's belt left alone while the danger is recent: the loop stays in Sol.
    expect(opsOf(steered)).toEqual(['travel']);
    expect(argsOf(steered).target).toBe('sol_belt');

    // Once the danger is older than the fleet's window, Vega is back.
    time += 120_000;
    expect(argsOf(await ask(autopilot(3, bob), knowsSolAndVega())).target).toBe('vega');
  });
});
