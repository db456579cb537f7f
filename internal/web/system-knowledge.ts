// What the fleet knows of one system, for the map's system panel (`GET /api/systems/:id`): its name, empire and
// police level from the galaxy, its POIs with the deposits an answer listed, the stations' markets the fleets shared
// (each bid with the age of its reading), the harm captains came to there, and the captains there now (by their
// last snapshot). Pure: the server hands in the galaxy, the fleets' shared knowledge and the cards. What no answer
// said stays unknown (null, or an empty list the page words as "no market reading yet"), never 0.
import type { SharedDanger, SharedMarketView } from '../spacemolt/index.js';
import { nameFor } from './action-sentence.js';
import type { CaptainCard } from './bridge.js';
import type { GalaxyDeposits, GalaxySystem } from './galaxy.js';

export interface SystemKnowledge {
  id: string;
  name: string;
  /** The empire's name, null when no answer said it. */
  empire: string | null;
  /** The game's police level (0..100), null when unknown. */
  policeLevel: number | null;
  /** Below DANGER_POLICE (pirates may attack); null when the police level is unknown. */
  dangerous: boolean | null;
  neighbours: Array<{ id: string; name: string }>;
  pois: SystemPoi[];
  /** One per station the fleets saw a market of, newest reading first; empty: no reading yet. */
  markets: SystemMarket[];
  /** Harm captains came to here (the fleets' shared dangers), newest first. */
  attacks: Array<{ what: string; captain: string; at: number; ageMs: number }>;
  captains: Array<{ sessionId: string; name: string; place: string | null; docked: boolean }>;
}

export interface SystemPoi {
  id: string;
  name: string;
  /** The game's kind of POI (station, asteroid_belt…), null when not said. */
  type: string | null;
  /** Null: no answer listed this POI's deposits. */
  deposits: { items: Array<{ itemId: string; name: string; remaining: number }>; at: number; ageMs: number } | null;
}

export interface SystemMarket {
  poiId: string;
  station: string;
  at: number;
  ageMs: number;
  seenBy: string;
  /** What the station pays per unit, best bid first. */
  bids: Array<{ itemId: string; name: string; bid: number }>;
  /** Items nobody buys there, by name. */
  noBuyers: string[];
}

export interface SystemKnowledgeInput {
  system: GalaxySystem;
  /** The name the game gave an id (the galaxy's). */
  nameOf: (id: string) => string | undefined;
  deposits: (poiId: string) => GalaxyDeposits | undefined;
  /** Every fleet's markets (any system): the newest per station is kept. */
  markets: readonly SharedMarketView[];
  dangers: readonly SharedDanger[];
  cards: readonly CaptainCard[];
  dangerPolice: number;
  now: number;
}

export function systemKnowledge(input: SystemKnowledgeInput): SystemKnowledge {
  const { system, nameOf, now } = input;
  const name = (id: string): string => nameFor(id, nameOf);
  const age = (at: number): number => Math.max(0, now - at);
  const pois: SystemPoi[] = Object.entries(system.pois).map(([id, poi]) => {
    const held = input.deposits(id);
    return {
      id,
      name: nameOf(id) ?? poi.name,
      type: poi.type,
      deposits: held
        ? {
            items: held.resources.map((deposit) => ({ ...deposit, name: name(deposit.itemId) })),
            at: held.at,
            ageMs: age(held.at),
          }
        : null,
    };
  });
  return {
    id: system.id,
    name: system.name,
    empire: system.empire ? name(system.empire) : null,
    policeLevel: system.policeLevel,
    dangerous: system.policeLevel === null ? null : system.policeLevel < input.dangerPolice,
    neighbours: system.connections.map((id) => ({ id, name: name(id) })),
    pois,
    markets: marketsOf(input, name, age),
    attacks: input.dangers
      .filter((danger) => danger.systemId === system.id)
      .map((danger) => ({ what: danger.what, captain: danger.captain, at: danger.at, ageMs: age(danger.at) }))
      .sort((a, b) => b.at - a.at),
    captains: input.cards
      .filter((card) => card.snapshot?.systemId === system.id)
      .map((card) => ({
        sessionId: card.sessionId,
        name: card.name,
        place: card.snapshot?.poiId ? name(card.snapshot.poiId) : null,
        docked: card.snapshot?.docked === true,
      }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  };
}

function marketsOf(
  input: SystemKnowledgeInput,
  name: (id: string) => string,
  age: (at: number) => number,
): SystemMarket[] {
  const newest = new Map<string, SharedMarketView>();
  for (const view of input.markets) {
    if (view.systemId !== input.system.id) continue;
    const held = newest.get(view.poiId);
    if (!held || held.at < view.at) newest.set(view.poiId, view);
  }
  return [...newest.values()]
    .map((view) => ({
      poiId: view.poiId,
      station: input.nameOf(view.poiId) ?? view.name,
      at: view.at,
      ageMs: age(view.at),
      seenBy: view.captain,
      bids: Object.entries(view.bids)
        .map(([itemId, bid]) => ({ itemId, name: name(itemId), bid }))
        .sort((a, b) => b.bid - a.bid || (a.name < b.name ? -1 : 1)),
      noBuyers: view.noBuyers.map(name),
    }))
    .sort((a, b) => b.at - a.at);
}
