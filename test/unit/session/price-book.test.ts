// Net worth priced from the game's own market data (issue 28/29): the bids of the market views the session saw,
// minimolt's price table only for items no market showed, and which of the two priced it said.
import { describe, expect, it } from 'vitest';
import { netWorthOf, PriceBook, stateFromData, latestState } from '../../../internal/session/index.js';
import type { Message } from '../../../internal/shared/index.js';

const market = (items: Array<{ item_id: string; bid: number }>): Message => ({
  id: 'm',
  role: 'tool',
  content: 'market',
  createdAt: 0,
  data: {
    op: 'view_market',
    details: { items: items.map((item) => ({ ...item, base_price: 1, ask: item.bid + 5 })) },
  },
});

const status = (credits: number, cargo: Array<{ item_id: string; quantity: number }>): Message => ({
  id: 's',
  role: 'tool',
  content: 'status',
  createdAt: 1,
  data: { player: { username: 'ace', credits }, ship: { fuel: 10 }, cargo },
});

describe('netWorthOf', () => {
  it('counts the hold at the price table when no market was seen, and says so', () => {
    expect(netWorthOf(100, [{ item_id: 'iron_ore', quantity: 10 }])).toEqual({ value: 180, pricing: 'price-table' });
  });

  it("counts an item at the game's latest bid once a market showed it; the table for the others", () => {
    const prices = new PriceBook();
    prices.observe(market([{ item_id: 'iron_ore', bid: 11 }]));
    prices.observe(market([{ item_id: 'iron_ore', bid: 13 }]));
    const cargo = [
      { item_id: 'iron_ore', quantity: 10 },
      { item_id: 'copper_ore', quantity: 1 },
    ];
    const worth = netWorthOf(100, cargo, prices);
    expect(worth.pricing).toBe('market');
    expect(worth.value).toBe(100 + 10 * 13 + netWorthOf(0, [{ item_id: 'copper_ore', quantity: 1 }]).value);
  });

  it('ignores failed results and results that are not a market', () => {
    const prices = new PriceBook();
    prices.observe({ ...market([{ item_id: 'iron_ore', bid: 99 }]), isError: true });
    prices.observe(status(5, []));
    expect(prices.seen).toBe(false);
  });
});

describe('states priced by what the session saw', () => {
  it('stateFromData and latestState price the hold with the bids seen before it, labelled', () => {
    const data = status(100, [{ item_id: 'iron_ore', quantity: 10 }]).data;
    expect(stateFromData(data)).toMatchObject({ netWorth: 180, netWorthPricing: 'price-table' });
    const prices = new PriceBook();
    const state = latestState(
      [market([{ item_id: 'iron_ore', bid: 20 }]), status(100, [{ item_id: 'iron_ore', quantity: 10 }])],
      prices,
    );
    expect(state).toMatchObject({ credits: 100, netWorth: 300, netWorthPricing: 'market' });
  });
});
