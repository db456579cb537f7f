// The read-only tools: answers computed from the state at once, no tick spent (SIM-SPEC "Tools", queries).
import type {
  MmDeposit, MmMapDetails, MmMarketDetails, MmNotificationsDetails, MmPoiDetails, MmPoiSummary, MmRouteDetails,
  MmSkillsDetails, MmSystemDetails, ItemId,
} from '../shared/index.js';
import { jumpFuel, poiDistance } from './actions.js';
import { BASE_PRICE, FUEL_PRICE, ITEM_IDS, REPAIR_PRICE } from './data.js';
import { depositUnits, quoteAsk, quoteBid } from './economy.js';
import type { Engine } from './engine.js';
import { cargoUsed, levelFor, nextLevelXp, SKILL_NAMES, type Player } from './player.js';
import { SimError } from './sim-error.js';
import type { Poi, StarSystem } from './world.js';

export interface QueryResult<Details = unknown> {
  text: string;
  details: Details;
}

function poiSummary(engine: Engine, player: Player, poi: Poi): MmPoiSummary {
  const summary: MmPoiSummary = { id: poi.id, name: poi.name, type: poi.type, has_base: poi.hasBase, position: { x: poi.x, y: poi.y } };
  const here = player.poiId === null ? undefined : engine.world.pois.get(player.poiId);
  if (here && here.systemId === poi.systemId) summary.distance = poiDistance(here, poi);
  return summary;
}

function systemOrThrow(engine: Engine, systemId: string, field: string): StarSystem {
  const system = engine.world.systems.get(systemId);
  if (!system) throw new SimError('invalid_params', `${field}: no system '${systemId}' (see get_map)`);
  return system;
}

export function getSystem(engine: Engine, player: Player, systemId?: string): QueryResult<MmSystemDetails> {
  const system = systemOrThrow(engine, systemId ?? player.systemId, 'system_id');
  const pois = system.pois.map((poi) => poiSummary(engine, player, poi));
  const connections = [...system.lanes].map(([id, distance]) => {
    const other = engine.world.systems.get(id) as StarSystem;
    return { system_id: id, name: other.name, distance, police_level: other.policeLevel };
  });
  const text = `${system.name} (${system.id}), police ${system.policeLevel}${system.empire ? `, ${system.empire} capital` : ''}. POIs: ${pois
    .map((p) => `${p.id} [${p.type}${p.has_base ? ', base' : ''}${p.distance !== undefined ? `, ${p.distance} AU` : ''}]`).join(', ')}. Lanes: ${connections
    .map((c) => `${c.system_id} (police ${c.police_level})`).join(', ')}.`;
  return { text, details: { system: { id: system.id, name: system.name, empire: system.empire, police_level: system.policeLevel, pois, connections } } };
}

export function getPoi(engine: Engine, player: Player, poiId?: string): QueryResult<MmPoiDetails> {
  const id = poiId ?? player.poiId;
  const poi = id === null ? undefined : engine.world.pois.get(id);
  if (!poi) throw new SimError('invalid_poi', id === null ? 'you are between systems: give a poi_id' : `no POI '${id}': see get_system`);
  const resources: MmDeposit[] = poi.deposits.map((d) => ({ resource_id: d.resource, richness: d.richness, remaining: depositUnits(d, engine.tick), max: d.max }));
  const text = `${poi.name} (${poi.id}), ${poi.type} in ${poi.systemId}${poi.hasBase ? ', has a base (market, fuel, repair)' : ''}.${resources.length
    ? ` Deposits: ${resources.map((r) => `${r.resource_id} richness ${r.richness}, ${r.remaining}/${r.max}`).join('; ')}.` : ''}`;
  return { text, details: { poi: { ...poiSummary(engine, player, poi), system_id: poi.systemId, resources } } };
}

export function getMap(engine: Engine): QueryResult<MmMapDetails> {
  const systems = engine.world.order.map((id) => {
    const s = engine.world.systems.get(id) as StarSystem;
    return { id: s.id, name: s.name, empire: s.empire, police_level: s.policeLevel, has_station: s.pois.some((p) => p.hasBase), connections: [...s.lanes.keys()] };
  });
  const text = `${systems.length} systems: ${systems.map((s) => `${s.id}${s.has_station ? '*' : ''}(${s.police_level})`).join(', ')}. (* = station, (n) = police level)`;
  return { text, details: { systems } };
}

export function findRoute(engine: Engine, player: Player, target: string): QueryResult<MmRouteDetails> {
  systemOrThrow(engine, target, 'target_system');
  const previous = new Map<string, string | null>([[player.systemId, null]]);
  const queue = [player.systemId];
  for (let head = 0; head < queue.length && !previous.has(target); head++) {
    const id = queue[head] as string;
    for (const next of engine.world.systems.get(id)?.lanes.keys() ?? []) {
      if (previous.has(next)) continue;
      previous.set(next, id);
      queue.push(next);
    }
  }
  const route: string[] = [];
  for (let id: string | null | undefined = target; id; id = previous.get(id)) route.unshift(id);
  const jumps = route.length - 1;
  const fuel = jumps * jumpFuel(cargoUsed(player));
  return { text: `Route ${route.join(' -> ')}: ${jumps} jump(s), about ${fuel} fuel.`, details: { route, jumps, fuel_estimate: fuel } };
}

export function viewMarket(engine: Engine, player: Player, itemId?: ItemId): QueryResult<MmMarketDetails> {
  const poi = player.poiId === null ? undefined : engine.world.pois.get(player.poiId);
  if (!poi?.market) throw new SimError('not_docked', 'no market here: view_market works at a station (travel to one and dock)');
  const items = (itemId ? [itemId] : ITEM_IDS).map((item) => {
    const entry = poi.market?.get(item);
    if (!entry) throw new SimError('invalid_params', `item_id: unknown item '${item}'`);
    return { item_id: item, base_price: BASE_PRICE[item], bid: quoteBid(entry, engine.tick), ask: quoteAsk(entry, engine.tick) };
  });
  const text = `Market at ${poi.name}: ${items.map((i) => `${i.item_id} bid ${i.bid} / ask ${i.ask}`).join(', ')}. Fuel ${FUEL_PRICE}/unit, repair ${REPAIR_PRICE}/hull point.`;
  return { text, details: { station: { poi_id: poi.id, system_id: poi.systemId, name: poi.name }, items, fuel_price: FUEL_PRICE, repair_price: REPAIR_PRICE } };
}

export function getSkills(player: Player): QueryResult<MmSkillsDetails> {
  const entries = SKILL_NAMES.map((name) => [name, { level: levelFor(player.xp[name]), xp: player.xp[name], next_level_xp: nextLevelXp(player.xp[name]) }] as const);
  const skills = Object.fromEntries(entries) as MmSkillsDetails['skills'];
  return { text: `Skills: ${entries.map(([n, s]) => `${n} ${s.level} (${s.xp}/${s.next_level_xp} xp)`).join(', ')}.`, details: { skills } };
}

export function getNotifications(player: Player, options: { limit: number; clear: boolean }): QueryResult<MmNotificationsDetails> {
  const notifications = player.notifications.slice(0, options.limit);
  if (options.clear) player.notifications.splice(0, notifications.length);
  const remaining = player.notifications.length - (options.clear ? 0 : notifications.length);
  const lines = notifications.map((n) => `[${n.type} t${n.tick}]${n.from ? ` ${n.from}:` : ''} ${n.message}`);
  return { text: notifications.length ? lines.join('\n') : 'No notifications.', details: { notifications, remaining } };
}

export function listLog(player: Player, index?: number): QueryResult {
  if (index !== undefined) {
    const entry = player.log[index];
    if (!entry) throw new SimError('invalid_params', `index: no entry ${index} (you have ${player.log.length})`);
    return { text: entry.text, details: { index, tick: entry.tick, entry: entry.text } };
  }
  const entries = player.log.map((e, i) => ({ index: i, tick: e.tick, preview: e.text.slice(0, 200) }));
  return { text: entries.length ? entries.map((e) => `#${e.index} (t${e.tick}) ${e.preview}`).join('\n') : 'The captain\'s log is empty.', details: { entries } };
}
