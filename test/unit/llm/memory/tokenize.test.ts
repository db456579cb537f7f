import { expect, it } from 'vitest';
import { tokenize } from '../../../../internal/llm/memory/tokenize.js';

it('keeps distinct content words, lower-cased, game ids whole and split, stop words out, plurals stripped', () => {
  const words = tokenize('Mined 12 ORE at sol_ice_field; the Jumps and Batteries were fine, ores sold. a I');
  expect([...words].sort()).toEqual(
    ['12', 'battery', 'field', 'fine', 'ice', 'jump', 'mined', 'ore', 'sol', 'sol_ice_field', 'sold'].sort(),
  );
  expect(tokenize('').size).toBe(0);
  expect(tokenize('!!! ---').size).toBe(0);
});
