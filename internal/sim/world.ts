// The world's shape (systems, lanes, POIs, deposits, markets) and its seeded generation (SIM-SPEC "World").
// Deposits and markets change; everything else is fixed by (seed, systems) and regenerated on every start.
import { createRng, hashString, type EmpireId, type ItemId, type PoiType, type Rng } from '../spacemolt/index.js';
import { BASE_PRICE, CAPITALS, ITEM_IDS, ORE_IDS } from './data.js';

export interface Deposit {
  poiId: string;
  index: number;
  resource: ItemId;
  richness: number;
  max: number;
  /** Remaining at `since` (fractional: regeneration is 1% of max per tick, computed lazily). */
  remaining: number;
  since: number;
}

export interface MarketEntry {
  poiId: string;
  item: ItemId;
  /** The bid the market recovers towards: base price × station multiplier. */
  equilibrium: number;
  /** The bid at `since`; it recovers 2% of the gap per tick, computed lazily. */
  bid: number;
  since: number;
  /** false: nobody at this station buys the item (SpaceMolt's "no buyers"); it is still sold here. */
  buys: boolean;
}

export interface Poi {
  id: string;
  systemId: string;
  name: string;
  type: PoiType;
  x: number;
  y: number;
  hasBase: boolean;
  deposits: Deposit[];
  market: Map<ItemId, MarketEntry> | null;
}

export interface StarSystem {
  id: string;
  name: string;
  empire: EmpireId | null;
  x: number;
  y: number;
  policeLevel: number;
  /** Jumps from the nearest capital. */
  capitalDistance: number;
  pois: Poi[];
  /** Neighbour system id -> lane distance. */
  lanes: Map<string, number>;
}

export interface World {
  seed: number;
  systems: Map<string, StarSystem>;
  pois: Map<string, Poi>;
  /** System ids in generation order (capitals first). */
  order: string[];
}

export const MIN_SYSTEMS = 6;
export const MAX_SYSTEMS = 500;
const MAX_DEGREE = 5;

const SYLLABLES_A = [
  'Al',
  'Be',
  'Cor',
  'Dra',
  'El',
  'Fen',
  'Gal',
  'Hel',
  'Ir',
  'Jor',
  'Kel',
  'Lum',
  'Mor',
  'Nor',
  'Or',
  'Pra',
  'Quel',
  'Ras',
  'Sar',
  'Tor',
  'Ul',
  'Vex',
  'Wyr',
  'Xan',
  'Yor',
  'Zel',
];
const SYLLABLES_B = ['a', 'e', 'i', 'o', 'u', 'ae', 'io', 'ar', 'en', 'or'];
const SYLLABLES_C = ['n', 'th', 'x', 'ra', 'dor', 'mis', 'tis', 'lon', 'var', 'qis', 'ne', 'ka'];
const SUFFIXES = ['', '', '', ' Minor', ' Major', ' Reach', ' Drift', ' Deep'];

export function toSnakeId(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

function generateName(rng: Rng, taken: Set<string>): string {
  for (let attempt = 0; ; attempt++) {
    const base = rng.pick(SYLLABLES_A) + rng.pick(SYLLABLES_B) + rng.pick(SYLLABLES_C);
    const name = attempt < 20 ? base + rng.pick(SUFFIXES) : `${base} ${attempt}`;
    if (!taken.has(toSnakeId(name))) return name;
  }
}

function distance(a: { x: number; y: number }, b: { x: number; y: number }): number {
  return Math.round(Math.hypot(a.x - b.x, a.y - b.y) * 10) / 10;
}

export function generateWorld(options: { seed: number; systems: number }): World {
  const count = Math.min(MAX_SYSTEMS, Math.max(MIN_SYSTEMS, Math.floor(options.systems)));
  const rng = createRng(options.seed, 0xc0ffee);
  const systems = new Map<string, StarSystem>();
  const order: string[] = [];
  const side = Math.sqrt(count) * 20;
  for (let i = 0; i < count; i++) {
    const capital = CAPITALS[i];
    const name = capital ? capital.name : generateName(rng, new Set(systems.keys()));
    const id = capital ? capital.systemId : toSnakeId(name);
    // Capitals sit on a ring so that empires start apart.
    const angle = (i / CAPITALS.length) * Math.PI * 2;
    const x = capital ? side / 2 + Math.cos(angle) * side * 0.35 : rng.next() * side;
    const y = capital ? side / 2 + Math.sin(angle) * side * 0.35 : rng.next() * side;
    systems.set(id, {
      id,
      name,
      empire: capital?.empire ?? null,
      x: Math.round(x * 10) / 10,
      y: Math.round(y * 10) / 10,
      policeLevel: 0,
      capitalDistance: 0,
      pois: [],
      lanes: new Map(),
    });
    order.push(id);
  }
  linkSystems(
    rng,
    order.map((id) => systems.get(id) as StarSystem),
  );
  assignPolice(systems);
  const pois = new Map<string, Poi>();
  for (const id of order) {
    const system = systems.get(id) as StarSystem;
    for (const poi of generatePois(rng, system)) {
      system.pois.push(poi);
      pois.set(poi.id, poi);
      if (poi.market) markNoBuyers(options.seed, poi.id, poi.market);
    }
  }
  return { seed: options.seed, systems, pois, order };
}

/** Keys the no-buyers draw apart from the world's stream, so adding the rule changed no other generated value. */
const NO_BUYERS_STREAM = 0xb0b;

/** The share of stations where nobody buys one item (SpaceMolt's "no buyers" sales): enough to meet, not to rule. */
const NO_BUYERS_SHARE = 1 / 3;

/**
 * About one station in three refuses to buy one item, drawn per station from the seed; every other item is bought.
 */
function markNoBuyers(seed: number, poiId: string, market: Map<ItemId, MarketEntry>): void {
  const rng = createRng(seed, hashString(poiId), NO_BUYERS_STREAM);
  if (rng.next() >= NO_BUYERS_SHARE) return;
  const candidates = [...ITEM_IDS];
  for (let refused = 1; refused > 0; refused--) {
    const [item] = candidates.splice(Math.floor(rng.next() * candidates.length), 1);
    const entry = item === undefined ? undefined : market.get(item);
    if (entry) entry.buys = false;
  }
}

/** A spanning tree (each system joins its nearest earlier one with room) plus extra short lanes; degree 1–5. */
function linkSystems(rng: Rng, list: StarSystem[]): void {
  const link = (a: StarSystem, b: StarSystem): void => {
    const d = Math.max(0.1, distance(a, b));
    a.lanes.set(b.id, d);
    b.lanes.set(a.id, d);
  };
  for (let i = 1; i < list.length; i++) {
    const system = list[i] as StarSystem;
    let best: StarSystem | undefined;
    let bestDistance = Infinity;
    for (let j = 0; j < i; j++) {
      const other = list[j] as StarSystem;
      if (other.lanes.size >= MAX_DEGREE - 1) continue; // keep a slot free so extra lanes remain possible
      const d = distance(system, other);
      if (d < bestDistance) {
        bestDistance = d;
        best = other;
      }
    }
    link(system, best ?? (list[i - 1] as StarSystem));
  }
  const extra = Math.max(1, Math.floor(list.length / 3));
  for (let k = 0; k < extra; k++) {
    const a = rng.pick(list);
    if (a.lanes.size >= MAX_DEGREE) continue;
    let best: StarSystem | undefined;
    let bestDistance = Infinity;
    for (const b of list) {
      if (b === a || a.lanes.has(b.id) || b.lanes.size >= MAX_DEGREE) continue;
      const d = distance(a, b);
      if (d < bestDistance) {
        bestDistance = d;
        best = b;
      }
    }
    if (best) link(a, best);
  }
}

function assignPolice(systems: Map<string, StarSystem>): void {
  const queue: StarSystem[] = [];
  const seen = new Set<string>();
  for (const capital of CAPITALS) {
    const system = systems.get(capital.systemId);
    if (!system) continue;
    system.capitalDistance = 0;
    seen.add(system.id);
    queue.push(system);
  }
  for (let head = 0; head < queue.length; head++) {
    const system = queue[head] as StarSystem;
    system.policeLevel = Math.max(0, 100 - 25 * system.capitalDistance);
    for (const neighbourId of system.lanes.keys()) {
      if (seen.has(neighbourId)) continue;
      const neighbour = systems.get(neighbourId) as StarSystem;
      neighbour.capitalDistance = system.capitalDistance + 1;
      seen.add(neighbourId);
      queue.push(neighbour);
    }
  }
}

const MINING_TYPES: readonly PoiType[] = ['asteroid_belt', 'asteroid_belt', 'ice_field', 'gas_cloud'];
const PLAIN_NAMES: Record<PoiType, string> = {
  station: 'Station',
  asteroid_belt: 'Belt',
  ice_field: 'Ice Field',
  gas_cloud: 'Nebula',
  planet: 'Prime',
  sun: 'Star',
  gate: 'Gate',
};

function generatePois(rng: Rng, system: StarSystem): Poi[] {
  const isCapital = system.empire !== null;
  const types: PoiType[] = ['gate'];
  if (isCapital || rng.chance(0.4)) types.unshift('station');
  const total = rng.int(Math.max(2, types.length + (isCapital ? 1 : 0)), 6);
  // Most systems have somewhere to mine; the rest is scenery.
  while (types.length < total) {
    const roll = rng.next();
    if (roll < 0.6) types.push(rng.pick(MINING_TYPES));
    else if (roll < 0.8 && !types.includes('sun')) types.push('sun');
    else types.push('planet');
  }
  const counts = new Map<PoiType, number>();
  return types.map((type) => {
    const n = (counts.get(type) ?? 0) + 1;
    counts.set(type, n);
    const label = type === 'station' && isCapital ? 'Central' : PLAIN_NAMES[type];
    const numbered = types.filter((t) => t === type).length > 1 ? ` ${['I', 'II', 'III', 'IV', 'V', 'VI'][n - 1]}` : '';
    const name = `${system.name} ${label}${numbered}`;
    const radius = type === 'sun' ? 0 : 0.5 + rng.next() * 2.5;
    const angle = rng.next() * Math.PI * 2;
    const poi: Poi = {
      id: toSnakeId(name),
      systemId: system.id,
      name,
      type,
      x: Math.round(Math.cos(angle) * radius * 100) / 100,
      y: Math.round(Math.sin(angle) * radius * 100) / 100,
      hasBase: type === 'station',
      deposits: [],
      market: null,
    };
    if (type === 'asteroid_belt' || type === 'ice_field' || type === 'gas_cloud') {
      poi.deposits = generateDeposits(rng, poi, system.capitalDistance);
    }
    if (type === 'station') poi.market = generateMarket(rng, poi.id);
    return poi;
  });
}

function generateDeposits(rng: Rng, poi: Poi, capitalDistance: number): Deposit[] {
  const resources: ItemId[] = [];
  if (poi.type === 'ice_field') resources.push('water_ice');
  if (poi.type === 'gas_cloud') resources.push('helium_gas');
  const wanted = rng.int(1, 3);
  // Rarer ores weigh more the further from a capital: the frontier pays.
  const weights = ORE_IDS.map((_, rank) => Math.max(0.05, 1 + (capitalDistance - 1.5) * (rank - 1.5) * 0.35));
  while (resources.length < wanted) {
    const sum = weights.reduce((a, b) => a + b, 0);
    let roll = rng.next() * sum;
    let choice: ItemId = 'iron_ore';
    for (let i = 0; i < ORE_IDS.length; i++) {
      roll -= weights[i] as number;
      if (roll <= 0) {
        choice = ORE_IDS[i] as ItemId;
        break;
      }
    }
    if (resources.includes(choice)) {
      if (resources.length >= 1 && rng.chance(0.5)) break;
      continue;
    }
    resources.push(choice);
  }
  return resources.map((resource, index) => {
    const max = rng.int(200, 2000);
    return { poiId: poi.id, index, resource, richness: rng.int(1, 10), max, remaining: max, since: 0 };
  });
}

function generateMarket(rng: Rng, poiId: string): Map<ItemId, MarketEntry> {
  const market = new Map<ItemId, MarketEntry>();
  for (const item of ITEM_IDS) {
    const multiplier = 0.6 + rng.next();
    const equilibrium = Math.round(BASE_PRICE[item] * multiplier * 100) / 100;
    market.set(item, { poiId, item, equilibrium, bid: equilibrium, since: 0, buys: true });
  }
  return market;
}
