import { describe, expect, it } from 'vitest';
import { summarizeTurn } from '../../../../internal/provider/builtin/index.js';
import { Conversation, dashboard, errorData } from './conversation.js';

describe('summarizeTurn', () => {
  it('tells what the turn did, in order, on one line, with what comes next', () => {
    const conversation = new Conversation()
      .user()
      .result('mine', {
        ...dashboard({ poi: 'sol_belt' }),
        details: { resource_id: 'copper_ore', quantity: 6, deposit_remaining: 9, xp_gained: 1 },
      })
      .result('mine', {
        ...dashboard({ poi: 'sol_belt' }),
        details: { resource_id: 'copper_ore', quantity: 6, deposit_remaining: 3, xp_gained: 1 },
      })
      .result('travel', dashboard({ poi: 'sol_central' }))
      .result('dock', dashboard({ docked: true }))
      .result('sell', {
        ...dashboard({ docked: true }),
        details: { item_id: 'copper_ore', quantity_sold: 12, total_earned: 151.6, average_price: 12.6 },
      })
      .result('refuel', errorData('no_credits'));
    const line = summarizeTurn({ turn: conversation.messages.slice(2), intent: 'mining at Sol Belt' });
    expect(line).toBe(
      'Mined 12 copper_ore; travelled to sol_central; docked at sol_central; sold 12 copper_ore for 152 cr at sol_central; ' +
        'no_credits along the way. Next: mining at Sol Belt.',
    );
  });

  it('says why the turn ended when nothing was done', () => {
    expect(summarizeTurn({ turn: [], reason: 'Still in transit; continuing next turn.' })).toBe(
      'Still in transit; continuing next turn.',
    );
    expect(summarizeTurn({ turn: [] })).toBe('Nothing to do this turn.');
  });
});
