// A card's last action in words: the answer's details with the game's names, never an id or JSON.
import { describe, expect, it } from 'vitest';
import { actionSentence, idAsWords, namesInText } from '../../../internal/web/action-sentence.js';
import { callInWords } from '../../../internal/web/bridge.js';

const names: Record<string, string> = { vexuth_major_ice_field: 'Vexuth Major Ice Field', sol_central: 'Sol Central' };
const nameOf = (id: string): string | undefined => names[id];

describe('actionSentence', () => {
  it('words a mine with the place the answer names', () => {
    const observation = {
      op: 'mine' as const,
      location: { poi_id: 'vexuth_major_ice_field' },
      details: { resource_id: 'platinum_ore', quantity: 7 },
    };
    expect(actionSentence(observation, { nameOf, poiId: null })).toBe('mined 7 Platinum Ore at Vexuth Major Ice Field');
  });

  it('uses where the ship was when the answer does not say, and names what it was never told as words', () => {
    const sold = { op: 'sell' as const, details: { item_id: 'iron_ore', quantity_sold: 1200, total_earned: 4800 } };
    expect(actionSentence(sold, { nameOf, poiId: 'sol_central' })).toBe(
      'sold 1,200 Iron Ore for 4,800 cr at Sol Central',
    );
    expect(actionSentence({ op: 'jump', details: { arrived_system: 'vexuth_major' } }, { nameOf, poiId: null })).toBe(
      'jumped to Vexuth Major',
    );
  });

  it('says a refusal with names in place of the ids it quotes', () => {
    const refused = {
      op: 'travel' as const,
      error: { code: 'invalid_poi', message: 'no vexuth_major_ice_field here' },
    };
    expect(actionSentence(refused, { nameOf, poiId: null })).toBe('could not travel: no Vexuth Major Ice Field here');
  });

  it('is no sentence for a query or an unknown op', () => {
    expect(actionSentence({ op: 'get_status' }, { nameOf, poiId: null })).toBeNull();
    expect(actionSentence({}, { nameOf, poiId: null })).toBeNull();
  });

  it('words ids and calls', () => {
    expect(idAsWords('platinum_ore')).toBe('Platinum Ore');
    expect(namesInText('at sol_central now', nameOf)).toBe('at Sol Central now');
    expect(callInWords('spacemolt', '{"action":"travel","target_poi":"sol_central"}', nameOf)).toBe(
      'travel Sol Central',
    );
    expect(callInWords('mine', 'not json', nameOf)).toBe('mine');
  });
});
