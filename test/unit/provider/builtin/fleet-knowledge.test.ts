// Two autopilot captains sharing one FleetKnowledge: a bid one of them sees at a station the other never docked at
// changes where the other takes its hold, and a large sale one of them claimed at a station sends the other elsewhere.
// Each case is played again without the fleet (or without the claim) so the test fails if the fleet is not consulted.
import { describe, expect, it } from 'vitest';
import { FleetKnowledge } from '../../../../internal/fleet/shared-knowledge.js';
import { createAutopilotProvider } from '../../../../internal/provider/builtin/index.js';
import type { CompletionResponse, Provider } from '../../../../internal/shared/index.js';
import type { FleetKnowledgePort } from '../../../../internal/spacemolt/index.js';
import {
  Conversation,
  IRON_BELT,
  MAP,
  SOL_TWO_STATIONS,
  TOOLS,
  argsOf,
  dashboard,
  ironMarket,
  opsOf,
} from './conversation.js';

const ask = (provider: Provider, conversation: Conversation): Promise<CompletionResponse> =>
  provider.complete({ messages: structuredClone(conversation.messages), tools: TOOLS });

/** One clock for the fleet and its captains, a second on for every reading, so "newer" never ties. */
let time = 1_000_000;
const now = (): number => (time += 1000);

function autopilot(seed: number, fleet?: FleetKnowledgePort): Provider {
  return createAutopilotProvider({ seed, now, ...(fleet ? { fleet } : {}) });
}

/** A captain that once docked at `station` (and read its market), now at the belt with a full hold of iron. */
function fullHoldAfter(station: { id: string; name: string; bid: number }, iron = 70): Conversation {
  return new Conversation()
    .user()
    .result('get_status', dashboard({ poi: station.id, docked: true }))
    .result('get_map', MAP)
    .result('get_system', SOL_TWO_STATIONS)
    .result('view_market', ironMarket(station.id, station.name, station.bid, { fuel_price: 2, repair_price: 3 }))
    .result('get_poi', IRON_BELT)
    .result('get_status', dashboard({ poi: 'sol_belt', cargo: [{ item_id: 'iron_ore', quantity: iron }] }));
}

const CENTRAL = { id: 'sol_central', name: 'Sol Central', bid: 9 };

/** Captain A docks at Sol Port and reads its market. */
async function annSeesPort(ann: Provider, bid: number): Promise<void> {
  await ask(ann, fullHoldAfter({ id: 'sol_port', name: 'Sol Port', bid }, 0));
}

function travelTarget(response: CompletionResponse): unknown {
  expect(opsOf(response)).toEqual(['travel']);
  return argsOf(response).target;
}

describe('builtin/autopilot with shared fleet knowledge', () => {
  it('heads for a station it never visited once a fleet-mate saw a better bid there (and not without the fleet)', async () => {
    const fleet = new FleetKnowledge({ fleet: 'miners', now });
    const bob = autopilot(2, fleet.port('bob'));
    const conversation = fullHoldAfter(CENTRAL);
    // Alone in what it knows: the station it docked at (9) beats a guess at one never seen (base 8, less 10%).
    expect(travelTarget(await ask(bob, conversation))).toBe('sol_central');
    expect(
      fleet
        .port('ann')
        .markets()
        .map((v) => [v.poiId, v.bids]),
    ).toEqual([['sol_central', { iron_ore: 9 }]]);

    await annSeesPort(autopilot(1, fleet.port('ann')), 20);
    expect(
      fleet
        .port('bob')
        .markets()
        .map((v) => [v.poiId, v.captain, v.bids]),
    ).toEqual([['sol_port', 'ann', { iron_ore: 20 }]]);
    // Bob's next turn: the status confirms nothing moved, and the hold now goes to Sol Port.
    conversation
      .user('Autoplay turn 2.')
      .result('get_status', dashboard({ poi: 'sol_belt', cargo: [{ item_id: 'iron_ore', quantity: 70 }] }));
    const next = await ask(bob, conversation);
    expect(travelTarget(next)).toBe('sol_port');
    expect(next.message.content).toContain('Sol Port');
    // Bob claimed the sale, so the others count on the bid he will walk down.
    expect(fleet.port('ann').claimed('sol_port', 'iron_ore')).toBe(70);

    // The same two turns without a fleet: Bob keeps Sol Central.
    const alone = autopilot(2);
    const control = fullHoldAfter(CENTRAL);
    expect(travelTarget(await ask(alone, control))).toBe('sol_central');
    await annSeesPort(autopilot(1), 20);
    control
      .user('Autoplay turn 2.')
      .result('get_status', dashboard({ poi: 'sol_belt', cargo: [{ item_id: 'iron_ore', quantity: 70 }] }));
    expect(travelTarget(await ask(alone, control))).toBe('sol_central');
  });

  it('trusts a fleet-mate seeing no buyers at a station more than its own older view there', async () => {
    const fleet = new FleetKnowledge({ fleet: 'miners', now });
    const bob = autopilot(2, fleet.port('bob'));
    // Bob saw Sol Port pay 20 for iron; later Ann finds nobody buys iron there any more.
    const conversation = fullHoldAfter({ id: 'sol_port', name: 'Sol Port', bid: 20 });
    expect(travelTarget(await ask(bob, conversation))).toBe('sol_port');
    const ann = autopilot(1, fleet.port('ann'));
    await ask(
      ann,
      new Conversation()
        .user()
        .result('get_status', dashboard({ poi: 'sol_port', docked: true }))
        .result('view_market', {
          details: {
            station: { poi_id: 'sol_port', system_id: 'sol', name: 'Sol Port' },
            // An empty best_buy cell, as the readers keep it: no buyers (bid 0), not an unknown bid.
            items: [{ item_id: 'iron_ore', base_price: 8, bid: 0 }],
          },
        }),
    );
    expect(fleet.port('bob').markets()[0]?.noBuyers).toEqual(['iron_ore']);
    conversation
      .user('Autoplay turn 2.')
      .result('get_status', dashboard({ poi: 'sol_belt', cargo: [{ item_id: 'iron_ore', quantity: 70 }] }));
    expect(travelTarget(await ask(bob, conversation))).toBe('sol_central');
  });

  /** Ann saw Sol Port pay 12; with `claim` she is heading there with 70 iron. Where does Bob take his? */
  async function bobWith(claim: boolean): Promise<unknown> {
    const fleet = new FleetKnowledge({ fleet: 'miners', now });
    const ann = autopilot(1, fleet.port('ann'));
    const annSaw = fullHoldAfter({ id: 'sol_port', name: 'Sol Port', bid: 12 }, 0);
    await ask(ann, annSaw);
    if (claim) {
      annSaw
        .user('Autoplay turn 2.')
        .result('get_status', dashboard({ poi: 'sol_belt', cargo: [{ item_id: 'iron_ore', quantity: 70 }] }));
      expect(travelTarget(await ask(ann, annSaw))).toBe('sol_port');
      expect(fleet.port('bob').claimed('sol_port', 'iron_ore')).toBe(70);
    }
    return travelTarget(await ask(autopilot(2, fleet.port('bob')), fullHoldAfter(CENTRAL)));
  }

  it("sells elsewhere when a fleet-mate's claimed sale will have walked the better bid down", async () => {
    // 12 beats Sol Central's 9; after Ann's 70 units it is about 12·0.995^70 ≈ 8.4.
    expect(await bobWith(false)).toBe('sol_port');
    expect(await bobWith(true)).toBe('sol_central');
  });
});
