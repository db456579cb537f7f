// The system panel's builder: a system's markets with the age of each reading (the newest per station, whichever
// fleet saw it), the deposits an answer listed, the harm captains came to there and the captains there now — and
// what no answer said kept unknown (null police, no market, no deposits), never 0.
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../internal/shared/index.js';
import type { SnapshotRecord } from '../../../internal/store/index.js';
import type { CaptainCard } from '../../../internal/web/bridge.js';
import { DANGER_POLICE, Galaxy } from '../../../internal/web/galaxy.js';
import { systemKnowledge } from '../../../internal/web/system-knowledge.js';

const NOW = 10_000_000;

function toolMessage(id: string, data: unknown, createdAt = 0): Message {
  return { id, role: 'tool', content: '', toolCallId: `c-${id}`, toolName: 'x', createdAt, data } as Message;
}

function survey(id: string, police: number | undefined, links: string[]): Message {
  return toolMessage(`sys-${id}`, {
    op: 'get_system',
    details: {
      system: {
        id,
        name: `${id[0]!.toUpperCase()}${id.slice(1)} Prime`,
        ...(police === undefined ? {} : { police_level: police }),
        pois: [
          { id: `${id}_station`, name: `${id} Station`, type: 'station', has_base: true },
          { id: `${id}_belt`, name: `${id} Belt`, type: 'asteroid_belt' },
        ],
        connections: links.map((other) => ({ system_id: other })),
      },
    },
  });
}

function card(name: string, systemId: string | null, poiId: string | null): CaptainCard {
  const snapshot = systemId
    ? ({ systemId, poiId, docked: poiId?.endsWith('station') ?? false, tick: 1 } as SnapshotRecord)
    : null;
  return { sessionId: `s-${name}`, name, snapshot } as CaptainCard;
}

function galaxy(): Galaxy {
  const map = new Galaxy();
  map.ingest(survey('sol', 80, ['rim']));
  map.ingest(survey('rim', undefined, ['sol']));
  return map;
}

function build(map: Galaxy, systemId: string, extra: Partial<Parameters<typeof systemKnowledge>[0]> = {}) {
  return systemKnowledge({
    system: map.view().find((system) => system.id === systemId)!,
    nameOf: (id) => map.nameOf(id),
    deposits: (poiId) => map.deposits(poiId),
    markets: [],
    dangers: [],
    cards: [],
    dangerPolice: DANGER_POLICE,
    now: NOW,
    ...extra,
  });
}

describe('systemKnowledge', () => {
  it('lists the newest market reading per station with its age, bids by name, best first', () => {
    const map = galaxy();
    const knowledge = build(map, 'sol', {
      markets: [
        {
          poiId: 'sol_station',
          systemId: 'sol',
          name: 'old',
          at: NOW - 600_000,
          bids: { iron_ore: 30 },
          noBuyers: [],
          captain: 'ada',
        },
        {
          poiId: 'sol_station',
          systemId: 'sol',
          name: 'sol Station',
          at: NOW - 180_000,
          bids: { iron_ore: 42, gold_ore: 90 },
          noBuyers: ['ice_crystal'],
          captain: 'bob',
        },
        {
          poiId: 'rim_station',
          systemId: 'rim',
          name: 'rim',
          at: NOW,
          bids: { iron_ore: 1 },
          noBuyers: [],
          captain: 'ada',
        },
      ],
    });
    expect(knowledge.markets).toHaveLength(1);
    const market = knowledge.markets[0]!;
    expect(market.station).toBe('sol Station');
    expect(market.ageMs).toBe(180_000);
    expect(market.seenBy).toBe('bob');
    expect(market.bids).toEqual([
      { itemId: 'gold_ore', name: 'Gold Ore', bid: 90 },
      { itemId: 'iron_ore', name: 'Iron Ore', bid: 42 },
    ]);
    expect(market.noBuyers).toEqual(['Ice Crystal']);
    expect(knowledge.name).toBe('Sol Prime');
    expect(knowledge.policeLevel).toBe(80);
    expect(knowledge.dangerous).toBe(false);
  });

  it('keeps what no answer said unknown: no market, no deposits, no police level', () => {
    const knowledge = build(galaxy(), 'rim');
    expect(knowledge.markets).toEqual([]);
    expect(knowledge.policeLevel).toBeNull();
    expect(knowledge.dangerous).toBeNull();
    expect(knowledge.pois.map((poi) => [poi.name, poi.type, poi.deposits])).toEqual([
      ['rim Station', 'station', null],
      ['rim Belt', 'asteroid_belt', null],
    ]);
    expect(knowledge.neighbours).toEqual([{ id: 'sol', name: 'Sol Prime' }]);
  });

  it("takes a belt's deposits from the newest answer that listed them, with its age", () => {
    const map = galaxy();
    const poi = (remaining: number, at: number): Message =>
      toolMessage(
        `poi-${at}`,
        {
          op: 'get_poi',
          details: { poi: { id: 'sol_belt', resources: [{ resource_id: 'iron_ore', remaining }] } },
        },
        at,
      );
    map.ingest(poi(500, NOW - 60_000));
    map.ingest(poi(900, NOW - 120_000));
    const belt = build(map, 'sol').pois.find((entry) => entry.id === 'sol_belt')!;
    expect(belt.deposits).toEqual({
      items: [{ itemId: 'iron_ore', name: 'Iron Ore', remaining: 500 }],
      at: NOW - 60_000,
      ageMs: 60_000,
    });
  });

  it('names the captains there now and the attacks seen there, newest first', () => {
    const knowledge = build(galaxy(), 'sol', {
      cards: [
        card('cyd', 'sol', 'sol_belt'),
        card('ada', 'sol', 'sol_station'),
        card('bob', 'rim', null),
        card('dan', null, null),
      ],
      dangers: [
        { systemId: 'sol', what: 'pirates: 25 hull lost', at: NOW - 5000, captain: 'cyd' },
        { systemId: 'sol', what: 'ship destroyed', at: NOW - 1000, captain: 'ada' },
        { systemId: 'rim', what: 'pirates', at: NOW, captain: 'bob' },
      ],
    });
    expect(knowledge.captains).toEqual([
      { sessionId: 's-ada', name: 'ada', place: 'sol Station', docked: true },
      { sessionId: 's-cyd', name: 'cyd', place: 'sol Belt', docked: false },
    ]);
    expect(knowledge.attacks.map((attack) => [attack.what, attack.ageMs])).toEqual([
      ['ship destroyed', 1000],
      ['pirates: 25 hull lost', 5000],
    ]);
  });
});
