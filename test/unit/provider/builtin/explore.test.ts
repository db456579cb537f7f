// Explore mode of the autopilot on synthetic knowledge: the goal switches it on, it heads for unvisited systems over
// lawful space unless the hull is healthy, refuels before it could run dry, and leaves lawless space on a low hull.
import { describe, expect, it } from 'vitest';
import { createAutopilotProvider } from '../../../../internal/provider/builtin/index.js';
import type { CompletionResponse } from '../../../../internal/shared/index.js';
import type { MmCargoItem } from '../../../../internal/spacemolt/index.js';
import { Conversation, SOL_BELT, SOL_SYSTEM, TOOLS, dashboard, opCall } from './conversation.js';

const EXPLORE =
  'Autoplay turn 1. Goal: visit as many distinct star systems as you can without dying; refuel when you need to.';

/** sol (100, station) — alpha (75) — outer (50); sol — wilds (0) — haven (100, station). */
const MAP = {
  details: {
    systems: [
      { id: 'sol', name: 'Sol', police_level: 100, has_station: true, connections: ['alpha', 'wilds'] },
      { id: 'alpha', name: 'Alpha', police_level: 75, has_station: false, connections: ['sol', 'outer'] },
      { id: 'outer', name: 'Outer', police_level: 50, has_station: false, connections: ['alpha'] },
      { id: 'wilds', name: 'Wilds', police_level: 0, has_station: false, connections: ['sol', 'haven'] },
      { id: 'haven', name: 'Haven', police_level: 100, has_station: true, connections: ['wilds'] },
    ],
  },
};

const WILDS = {
  details: {
    system: {
      id: 'wilds',
      name: 'Wilds',
      police_level: 0,
      pois: [{ id: 'wilds_gate', name: 'Wilds Gate', type: 'gate', has_base: false, distance: 0 }],
      connections: [
        { system_id: 'sol', name: 'Sol', distance: 10, police_level: 100 },
        { system_id: 'haven', name: 'Haven', distance: 10, police_level: 100 },
      ],
    },
  },
};

type Where = Parameters<typeof dashboard>[0];

/** A conversation that knows the map and Sol's layout, having seen the ship in `visited` systems, now at `now`. */
function known(options: { goal?: string; now: Where; visited?: string[] }): Conversation {
  const conversation = new Conversation()
    .user(options.goal ?? EXPLORE)
    .result('get_status', dashboard({ docked: true }))
    .result('get_map', MAP)
    .result('get_system', SOL_SYSTEM)
    .result('get_poi', SOL_BELT);
  for (const system of options.visited ?? []) {
    conversation.result('get_status', dashboard({ system, poi: `${system}_gate`, police: policeOf(system) }));
  }
  if (options.now?.system === 'wilds') {
    conversation.result('get_status', dashboard(options.now)).result('get_system', WILDS);
  }
  return conversation.result('get_status', dashboard(options.now));
}

function policeOf(system: string): number {
  return MAP.details.systems.find((s) => s.id === system)?.police_level ?? 100;
}

async function next(
  conversation: Conversation,
): Promise<{ name: string; args: Record<string, unknown>; response: CompletionResponse }> {
  const response = await createAutopilotProvider({ seed: 3 }).complete({
    messages: structuredClone(conversation.messages),
    tools: TOOLS,
  });
  expect(response.message.toolCalls).toHaveLength(1);
  const { op, args } = opCall(response.message.toolCalls[0]!);
  return { name: op, args, response };
}

describe('builtin/autopilot explore mode', () => {
  it('jumps to an unvisited neighbour when the goal is to explore, and keeps mining for other goals', async () => {
    const explore = await next(known({ now: { docked: true } }));
    expect(explore.name).toBe('jump');
    expect(explore.args).toEqual({ target: 'alpha' });
    expect(explore.response.message.content).toMatch(/^Exploring: .*Alpha/);
    expect(explore.response.message.content).not.toContain('\n');

    const grind = await next(known({ goal: 'Autoplay turn 1. Goal: earn credits.', now: { docked: true } }));
    expect(grind.name).not.toBe('jump');

    // The system prompt's goal counts when the user message names none.
    const fromSystem = known({ goal: 'Autoplay turn 1.', now: { docked: true } });
    fromSystem.messages[0]!.content = 'You are a captain.\n\nYour goal: explore the galaxy, visiting new systems';
    expect((await next(fromSystem)).args).toEqual({ target: 'alpha' });
  });

  it('goes on to systems not yet visited rather than back to ones it has seen', async () => {
    const here = { system: 'alpha', poi: 'alpha_gate', police: 75 };
    const step = await next(known({ now: here, visited: ['sol', 'alpha'] }));
    expect(step).toMatchObject({ name: 'jump', args: { target: 'outer' } });
  });

  it('crosses lawless space on a healthy hull, goes round it through lawful space otherwise', async () => {
    const healthy = await next(known({ now: { docked: true, hull: 100 }, visited: ['sol', 'alpha'] }));
    expect(healthy.args).toEqual({ target: 'wilds' });
    const worn = await next(known({ now: { docked: true, hull: 70 }, visited: ['sol', 'alpha'] }));
    expect(worn.args).toEqual({ target: 'alpha' });
    expect(worn.response.message.content).toContain('on the way to unvisited Outer');
  });

  it('refuels before running dry: heads for the station, docks, refuels, then jumps', async () => {
    // Fuel 12 would reach Alpha (5) but not back to a station from there (5 + margin).
    const atBelt = await next(known({ now: { poi: 'sol_belt', fuel: 12 } }));
    expect(atBelt).toMatchObject({ name: 'travel', args: { target: 'sol_central' } });
    const atStation = await next(known({ now: { poi: 'sol_central', fuel: 10 } }));
    expect(atStation.name).toBe('dock');
    const docked = await next(known({ now: { poi: 'sol_central', docked: true, fuel: 10, credits: 150 } }));
    expect(docked.name).toBe('refuel');
    expect(docked.args.quantity).toBe(75); // all the credits buy: 150 cr at 2 cr a unit
    const enough = await next(known({ now: { poi: 'sol_central', fuel: 40 } }));
    expect(enough).toMatchObject({ name: 'jump', args: { target: 'alpha' } });
  });

  it('with no money for fuel, mines in the system to pay for it instead of jumping off dry', async () => {
    const broke = await next(known({ now: { poi: 'sol_central', docked: true, fuel: 8, credits: 0 } }));
    expect(broke).toMatchObject({ name: 'travel', args: { target: 'sol_belt' } });
    const mining = await next(known({ now: { poi: 'sol_belt', fuel: 4, credits: 0 } }));
    expect(mining.name).toBe('mine');
    const full: MmCargoItem[] = [{ item_id: 'iron_ore', quantity: 70 }];
    const sell = await next(known({ now: { poi: 'sol_central', docked: true, fuel: 2, credits: 0, cargo: full } }));
    expect(sell).toMatchObject({ name: 'sell', args: { item_id: 'iron_ore', quantity: 70 } });
  });

  it('leaves a lawless system for a lawful one when the hull is low, and repairs at a station', async () => {
    const here = { system: 'wilds', poi: 'wilds_gate', police: 0, hull: 35 };
    const flee = await next(known({ now: here, visited: ['sol', 'wilds'] }));
    expect(flee.name).toBe('jump');
    expect(policeOf(flee.args.target as string)).toBeGreaterThanOrEqual(50);
    expect(flee.response.message.content).toMatch(/lawless/);

    const docked = await next(known({ now: { docked: true, hull: 35 } }));
    expect(docked.name).toBe('repair');
    const atBelt = await next(known({ now: { poi: 'sol_belt', hull: 50 } }));
    expect(atBelt).toMatchObject({ name: 'travel', args: { target: 'sol_central' } });
  });
});
