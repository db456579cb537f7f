// The galaxy as the captains know it: systems, lanes and POI positions read from stored get_map and get_system
// results (the game layer's observation on each tool message, checked with detailsOf), laid out on a plane, and the
// names the game gave its ids (systems, POIs, stations) wherever an answer said them. The game's answers say which
// systems connect but not where they are (neither get_map nor get_system's text carries coordinates), so the layout is
// ours: seeded by each system's id and relaxed in id order, it depends only on which systems and lanes are known —
// never on which captain found them first or when — and is the same on every load.
import { type Message } from '../shared/index.js';
import { detailsOf, observationOf, type ObservedDetails } from '../spacemolt/index.js';

export interface GalaxySystem {
  id: string;
  name: string;
  empire: string | null;
  hasStation: boolean;
  /** The game's police level (0..100) when an answer said it; below DANGER_POLICE pirates may attack. */
  policeLevel: number | null;
  connections: string[];
  /** Layout position, in map units (0..1000). */
  x: number;
  y: number;
  /** POI id -> offset from the system's centre in map units (a ring in get_system's order). */
  pois: Record<string, GalaxyPoi>;
}

export interface GalaxyPoi {
  x: number;
  y: number;
  name: string;
  /** The game's kind of POI (station, asteroid_belt, ice_field…) when said. */
  type: string | null;
}

/** A POI's deposits as the last answer that listed them said (get_poi, or a status at the POI), `at` epoch ms. */
export interface GalaxyDeposits {
  resources: Array<{ itemId: string; remaining: number }>;
  at: number;
}

interface MutableSystem {
  id: string;
  name: string;
  empire: string | null;
  hasStation: boolean;
  policeLevel: number | null;
  connections: Set<string>;
  x: number;
  y: number;
  pois: Record<string, GalaxyPoi>;
}

/** Below this police level minimolt's pirates may strike (the risk grows as it falls); the map marks it as danger. */
export const DANGER_POLICE = 50;

/** Radius in map units that a system's POIs are spread over. */
const POI_RADIUS = 14;
const SIZE = 1000;

function hash(text: string): number {
  let value = 2166136261;
  for (let index = 0; index < text.length; index++) value = Math.imul(value ^ text.charCodeAt(index), 16777619);
  return (value >>> 0) / 4294967296;
}

export class Galaxy {
  private readonly systems = new Map<string, MutableSystem>();
  /** Every id the game named (systems, POIs, stations) -> the name it gave. */
  private readonly named = new Map<string, string>();
  /** POI id -> its deposits, newest answer kept (not part of view(): they never move the map). */
  private readonly depositsAt = new Map<string, GalaxyDeposits>();
  private dirty = false;
  /** Bumped whenever what `view()` returns changes. */
  version = 0;

  /** Reads one stored message; true when it taught the map something. */
  ingest(message: Message): boolean {
    if (message.role !== 'tool') return false;
    const observation = observationOf(message.data);
    const learnt = this.learnNames(observation);
    if (message.isError) return learnt;
    this.learnDeposits(observation, message.createdAt);
    if (observation.op === 'get_map') return this.ingestMap(detailsOf('get_map', observation.details));
    if (observation.op === 'get_system') return this.ingestSystem(detailsOf('get_system', observation.details));
    return learnt;
  }

  /** The name the game gave an id, when one of its answers said it. */
  nameOf(id: string): string | undefined {
    return this.named.get(id);
  }

  /** What the newest answer said a POI's deposits hold; undefined when no answer listed them. */
  deposits(poiId: string): GalaxyDeposits | undefined {
    return this.depositsAt.get(poiId);
  }

  private learnDeposits(observation: ReturnType<typeof observationOf>, at: number): void {
    const poi = observation.op === 'get_poi' ? detailsOf('get_poi', observation.details)?.poi : undefined;
    const poiId = poi?.id ?? observation.location?.poi_id;
    const resources = poi?.resources ?? observation.resources;
    if (!poiId || !resources) return;
    const held = this.depositsAt.get(poiId);
    if (held && held.at > at) return;
    this.depositsAt.set(poiId, {
      resources: resources.map((deposit) => ({ itemId: deposit.resource_id, remaining: deposit.remaining })),
      at,
    });
  }

  /** Every id -> name the game said. */
  names(): Record<string, string> {
    return Object.fromEntries(this.named);
  }

  private learnName(id: string | null | undefined, name: string | null | undefined): void {
    if (!id || !name || name === id || this.named.get(id) === name) return;
    this.named.set(id, name);
    this.dirty = true;
  }

  /** Names from any answer: the status block's place, a POI's or a station's own answer. */
  private learnNames(observation: ReturnType<typeof observationOf>): boolean {
    const before = this.version;
    this.learnName(observation.location?.system_id, observation.location?.system_name);
    this.learnName(observation.location?.poi_id, observation.location?.poi_name);
    if (observation.op === 'get_poi') {
      const poi = detailsOf('get_poi', observation.details)?.poi;
      this.learnName(poi?.id, poi?.name);
    }
    if (observation.op === 'view_market') {
      const station = detailsOf('view_market', observation.details)?.station;
      this.learnName(station?.poi_id, station?.name);
    }
    return this.settle(before, false);
  }

  private system(id: string, name?: string): MutableSystem {
    let known = this.systems.get(id);
    if (!known) {
      known = {
        id,
        name: name ?? id,
        empire: null,
        hasStation: false,
        policeLevel: null,
        connections: new Set(),
        x: 0,
        y: 0,
        pois: {},
      };
      this.systems.set(id, known);
      this.dirty = true;
    }
    return known;
  }

  private link(a: string, b: string): void {
    const from = this.system(a);
    const to = this.system(b);
    if (from.connections.has(b)) return;
    from.connections.add(b);
    to.connections.add(a);
    this.dirty = true;
  }

  private ingestMap(details: ObservedDetails<'get_map'> | undefined): boolean {
    if (!details) return false;
    const before = this.version;
    for (const entry of details.systems) {
      const system = this.system(entry.id, entry.name);
      this.describe(system, {
        name: entry.name,
        empire: entry.empire,
        hasStation: entry.has_station,
        policeLevel: entry.police_level,
      });
      for (const other of entry.connections ?? []) this.link(entry.id, other);
    }
    return this.settle(before);
  }

  private ingestSystem(details: ObservedDetails<'get_system'> | undefined): boolean {
    const entry = details?.system;
    if (!entry?.id) return false;
    const before = this.version;
    const system = this.system(entry.id, entry.name);
    this.describe(system, { name: entry.name, empire: entry.empire, policeLevel: entry.police_level });
    for (const link of entry.connections ?? []) {
      this.describe(this.system(link.system_id, link.name), { name: link.name, policeLevel: link.police_level });
      this.link(entry.id, link.system_id);
    }
    // The game's text does not say where a POI is: they are spread on a ring in the order the game lists them.
    const pois = entry.pois ?? [];
    pois.forEach((poi, index) => {
      this.learnName(poi.id, poi.name);
      if (system.pois[poi.id]) return;
      const angle = (index / Math.max(1, pois.length)) * Math.PI * 2 - Math.PI / 2;
      system.pois[poi.id] = {
        x: Math.cos(angle) * POI_RADIUS,
        y: Math.sin(angle) * POI_RADIUS,
        name: poi.name ?? poi.id,
        type: poi.has_base ? 'station' : (poi.type ?? null),
      };
      if (poi.has_base) system.hasStation = true;
      this.dirty = true;
    });
    return this.settle(before);
  }

  /** Takes what a result says about a system; a field it leaves out keeps what was known. */
  private describe(
    system: MutableSystem,
    said: {
      name?: string | undefined;
      empire?: string | null | undefined;
      hasStation?: boolean | undefined;
      policeLevel?: number | undefined;
    },
  ): void {
    this.learnName(system.id, said.name);
    const changes: Partial<MutableSystem> = {};
    if (said.name !== undefined && said.name !== system.name) changes.name = said.name;
    if (said.empire !== undefined && said.empire !== system.empire) changes.empire = said.empire;
    if (said.hasStation !== undefined && said.hasStation !== system.hasStation) changes.hasStation = said.hasStation;
    if (said.policeLevel !== undefined && said.policeLevel !== system.policeLevel)
      changes.policeLevel = said.policeLevel;
    if (Object.keys(changes).length === 0) return;
    Object.assign(system, changes);
    this.dirty = true;
  }

  /** `relayout`: systems or lanes may have changed (a name alone does not move anything). */
  private settle(before: number, relayout = true): boolean {
    if (!this.dirty) return false;
    this.dirty = false;
    if (relayout) layout([...this.systems.values()]);
    this.version = before + 1;
    return true;
  }

  /** Where a ship at (system, poi) is drawn: the POI's place when get_system told it, else a spot hashed from its id. */
  position(systemId: string | null, poiId: string | null): { x: number; y: number } | null {
    const system = systemId ? this.systems.get(systemId) : undefined;
    if (!system) return null;
    if (!poiId) return { x: system.x, y: system.y };
    const poi = system.pois[poiId];
    if (poi) return { x: system.x + poi.x, y: system.y + poi.y };
    const angle = hash(poiId) * Math.PI * 2;
    return { x: system.x + Math.cos(angle) * POI_RADIUS, y: system.y + Math.sin(angle) * POI_RADIUS };
  }

  view(): GalaxySystem[] {
    return [...this.systems.values()].map((system) => ({
      id: system.id,
      name: system.name,
      empire: system.empire,
      hasStation: system.hasStation,
      policeLevel: system.policeLevel,
      connections: [...system.connections].sort(),
      x: Math.round(system.x * 10) / 10,
      y: Math.round(system.y * 10) / 10,
      pois: system.pois,
    }));
  }

  get size(): number {
    return this.systems.size;
  }
}

/**
 * Each system starts at a spot seeded by its id; a bounded spring layout relaxes them in id order. The result depends
 * only on the known systems and lanes: the same map lays out the same on every load and for every discovery order.
 */
function layout(unordered: MutableSystem[]): void {
  const systems = [...unordered].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const byId = new Map(systems.map((system) => [system.id, system]));
  for (const system of systems) {
    const angle = hash(system.id) * Math.PI * 2;
    const reach = SIZE * 0.4 * Math.sqrt(hash(`${system.id}#r`));
    system.x = SIZE / 2 + Math.cos(angle) * reach;
    system.y = SIZE / 2 + Math.sin(angle) * reach;
  }
  // Work bounded by ~4M pair steps, so a map of thousands of systems still lays out in well under a second.
  const iterations = Math.max(5, Math.min(300, Math.floor(4_000_000 / Math.max(1, systems.length ** 2))));
  // Lanes in id order, like the systems: sums in another order round otherwise, and the layout would drift with them.
  const lanes = systems.map((system) =>
    [...system.connections]
      .sort()
      .map((id) => byId.get(id))
      .filter((other) => other !== undefined),
  );
  for (let step = 0; step < iterations; step++) relax(systems, lanes, 1 - step / iterations);
  fit(systems);
}

function relax(systems: MutableSystem[], lanes: MutableSystem[][], heat: number): void {
  const ideal = 80;
  const forces = systems.map(() => ({ x: 0, y: 0 }));
  for (let i = 0; i < systems.length; i++) {
    const a = systems[i]!;
    for (let j = i + 1; j < systems.length; j++) {
      const b = systems[j]!;
      const dx = a.x - b.x || 0.01;
      const dy = a.y - b.y || 0.01;
      const distance2 = dx * dx + dy * dy;
      const push = (ideal * ideal) / distance2;
      forces[i]!.x += dx * push;
      forces[i]!.y += dy * push;
      forces[j]!.x -= dx * push;
      forces[j]!.y -= dy * push;
    }
  }
  systems.forEach((system, index) => {
    for (const other of lanes[index]!) {
      const dx = other.x - system.x;
      const dy = other.y - system.y;
      const pull = Math.hypot(dx, dy) / ideal;
      forces[index]!.x += dx * pull * 0.5;
      forces[index]!.y += dy * pull * 0.5;
    }
  });
  systems.forEach((system, index) => {
    const force = forces[index]!;
    const length = Math.hypot(force.x, force.y) || 1;
    const move = Math.min(length, 20 * heat + 1);
    system.x += (force.x / length) * move;
    system.y += (force.y / length) * move;
  });
}

/** Scales the layout into 0..SIZE with a margin, keeping its aspect. */
function fit(systems: MutableSystem[]): void {
  if (systems.length === 0) return;
  const xs = systems.map((system) => system.x);
  const ys = systems.map((system) => system.y);
  const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const span = Math.max(maxX - minX, maxY - minY, 1);
  const scale = (SIZE * 0.9) / span;
  for (const system of systems) {
    system.x = SIZE * 0.05 + (system.x - minX) * scale;
    system.y = SIZE * 0.05 + (system.y - minY) * scale;
  }
}
