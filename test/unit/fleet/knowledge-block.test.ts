// The "Fleet knowledge" block of a model captain's prompt: the fleet-mates' freshest markets, dangers and sales with
// their ages, the captain's own findings left out, nothing at all when there is nothing to tell, and never longer
// than its bound however much the fleet knows.
import { describe, expect, it } from 'vitest';
import { BLOCK_MAX_CHARS, ageText, fleetKnowledgeBlock } from '../../../internal/fleet/knowledge-block.js';
import { FleetKnowledge } from '../../../internal/fleet/shared-knowledge.js';

function clock(start = 1_000_000): { now: () => number; advance: (ms: number) => void } {
  let t = start;
  return { now: () => t, advance: (ms) => (t += ms) };
}

describe('fleetKnowledgeBlock', () => {
  it("lists the others' markets (freshest first), dangers and sale claims with their ages, not the captain's own", () => {
    const time = clock();
    const fleet = new FleetKnowledge({ fleet: 'f', now: time.now });
    expect(fleetKnowledgeBlock({ knowledge: fleet, captain: 'bob' })).toBeUndefined();
    fleet.port('ann').publishMarket({
      poiId: 'sol_port',
      systemId: 'sol',
      name: 'Sol Port',
      bids: { iron_ore: 20, copper_ore: 31.26 },
      noBuyers: ['gold_ore'],
    });
    time.advance(5 * 60_000);
    fleet
      .port('cid')
      .publishMarket({ poiId: 'vex', systemId: 'vex', name: 'Vex', bids: { iron_ore: 9 }, noBuyers: [] });
    fleet
      .port('bob')
      .publishMarket({ poiId: 'own', systemId: 'sol', name: 'Own', bids: { iron_ore: 1 }, noBuyers: [] });
    fleet.port('ann').publishDanger({ systemId: 'wilds', what: '30 hull lost' });
    fleet.port('cid').claimSale({ poiId: 'sol_port', item: 'iron_ore', quantity: 70 });
    fleet.port('bob').claimSale({ poiId: 'vex', item: 'iron_ore', quantity: 5 });
    time.advance(45_000);

    const block = fleetKnowledgeBlock({ knowledge: fleet, captain: 'bob' });
    expect(block?.split('\n')).toEqual([
      'Fleet knowledge (what your fleet-mates saw; the age says how long ago — older prices may have moved):',
      '- market Vex (vex, vex): bids iron_ore 9 — cid, 45s ago',
      '- market Sol Port (sol_port, sol): bids copper_ore 31.3, iron_ore 20; no buyers for gold_ore — ann, 6m ago',
      '- danger in wilds: 30 hull lost — ann, 45s ago',
      '- cid is on its way to sell 70 iron_ore at sol_port',
    ]);
    // Ann does not read her own market or danger back, but sees Bob's market and both claims.
    const forAnn = fleetKnowledgeBlock({ knowledge: fleet, captain: 'ann' }) ?? '';
    expect(forAnn).toContain('market Own');
    expect(forAnn).not.toContain('Sol Port');
    expect(forAnn).not.toContain('danger');
    expect(forAnn).toContain('bob is on its way to sell 5 iron_ore at vex');
  });

  it('stays within its bound (about 300 tokens) however much the fleet knows', () => {
    const time = clock();
    const fleet = new FleetKnowledge({ fleet: 'f', now: time.now });
    for (let i = 0; i < 40; i++) {
      const bids = Object.fromEntries(Array.from({ length: 12 }, (_, j) => [`item_with_a_long_name_${j}`, 100 + j]));
      fleet.port(`captain_${i}`).publishMarket({
        poiId: `station_${i}`,
        systemId: `system_${i}`,
        name: `A Station With A Long Name ${i}`,
        bids,
        noBuyers: ['a', 'b', 'c', 'd', 'e'],
      });
      fleet.port(`captain_${i}`).publishDanger({ systemId: `system_${i}`, what: `${i} hull lost` });
      fleet.port(`captain_${i}`).claimSale({ poiId: `station_${i}`, item: 'iron_ore', quantity: i + 1 });
    }
    const block = fleetKnowledgeBlock({ knowledge: fleet, captain: 'bob' }) ?? '';
    expect(block.length).toBeLessThanOrEqual(BLOCK_MAX_CHARS);
    expect(block).toContain('- market A Station With A Long Name');
    expect(block).toMatch(/\(\d+ more not shown\)$/);
    const small = fleetKnowledgeBlock({ knowledge: fleet, captain: 'bob', maxChars: 300 }) ?? '';
    expect(small.length).toBeLessThanOrEqual(300);
  });

  it('says ages at a glance', () => {
    expect([0, 45_000, 89_000, 12 * 60_000, 3 * 3_600_000, 3 * 86_400_000].map(ageText)).toEqual([
      '0s',
      '45s',
      '89s',
      '12m',
      '3h',
      '3d',
    ]);
  });
});
