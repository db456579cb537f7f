// The read-only tools: answers computed from the state at once, no tick spent (SIM-SPEC "Tools", queries).
import type {
  MmCargoItem,
  MmDeposit,
  MmMapDetails,
  MmMarketDetails,
  MmNotificationsDetails,
  MmPoiDetails,
  MmPoiSummary,
  MmRouteDetails,
  MmSkillsDetails,
  MmSystemDetails,
  ItemId,
} from '../spacemolt/index.js';
import { jumpFuel, poiDistance } from '../spacemolt/index.js';
import { BASE_PRICE, FUEL_PRICE, ITEM_IDS, REPAIR_PRICE } from './data.js';
import { depositUnits, quoteAsk, quoteBid } from './economy.js';
import type { Engine } from './engine.js';
import { cargoUsed, levelFor, nextLevelXp, SKILL_NAMES, type Player, type SkillName } from './player.js';
import { SimError } from './sim-error.js';
import { securityText } from '../spacemolt/index.js';
import { count, credits, formatNumber, itemName, named, table, yesNo } from './text/format.js';
import { resourcesSection } from './text/status.js';
import type { Poi, StarSystem } from './world.js';

export interface QueryResult<Details = unknown> {
  text: string;
  details: Details;
}

function poiSummary(engine: Engine, player: Player, poi: Poi): MmPoiSummary {
  const summary: MmPoiSummary = {
    id: poi.id,
    name: poi.name,
    type: poi.type,
    has_base: poi.hasBase,
    position: { x: poi.x, y: poi.y },
  };
  const here = player.poiId === null ? undefined : engine.world.pois.get(player.poiId);
  if (here && here.systemId === poi.systemId) summary.distance = poiDistance(here, poi);
  return summary;
}

function systemOrThrow(engine: Engine, systemId: string, field: string): StarSystem {
  const system = engine.world.systems.get(systemId);
  if (!system) throw new SimError('invalid_params', `${field}: no system '${systemId}' (see get_map)`);
  return system;
}

/**
 * SpaceMolt measures lanes in GU (capture: `cargo_lanes\tCargo Lanes\t326 GU`); minimolt's lanes are map units of
 * 2–20. Thirty GU per unit puts minimolt's lanes in the captures' range (hundreds of GU).
 */
export const GU_PER_LANE_UNIT = 30;

/** A word for the `class` column, by type (the real server has many per type; one is enough for minimolt). */
export const POI_CLASS: Readonly<Record<Poi['type'], string>> = {
  station: '',
  asteroid_belt: 'metallic',
  ice_field: 'kuiper',
  gas_cloud: 'molecular_cloud',
  planet: 'terran',
  sun: 'G2V',
  gate: 'stable',
};

export function laneDistance(distance: number): string {
  return `${formatNumber(Math.round(distance * GU_PER_LANE_UNIT))} GU`;
}

/** Pilots at a POI. minimolt counts every pilot parked there (the engine keeps who is online to itself). */
function pilotsAt(engine: Engine, poi: Poi): number {
  let n = 0;
  for (const player of engine.players.values()) if (player.poiId === poi.id) n++;
  return n;
}

/** The system you are in (SpaceMolt's get_system takes no arguments). */
export function getSystem(engine: Engine, player: Player): QueryResult<MmSystemDetails> {
  const system = systemOrThrow(engine, player.systemId, 'system');
  const pois = system.pois.map((poi) => poiSummary(engine, player, poi));
  const connections = [...system.lanes].map(([id, distance]) => {
    const other = engine.world.systems.get(id) as StarSystem;
    return { system_id: id, name: other.name, distance, police_level: other.policeLevel };
  });
  const text = [
    `System: ${named(system.name, system.id)} | Empire: ${system.empire ?? ''} | Security: ${securityText(system.policeLevel)}`,
    `POIs (${pois.length}):`,
    ...table(
      ['id', 'name', 'type', 'class', 'base', 'online'],
      system.pois.map((p) => [p.id, p.name, p.type, POI_CLASS[p.type], p.hasBase ? p.name : '', pilotsAt(engine, p)]),
    ),
    `Connections (${connections.length}):`,
    ...table(
      ['system_id', 'name', 'distance'],
      connections.map((c) => [c.system_id, c.name, laneDistance(c.distance)]),
    ),
  ].join('\n');
  return {
    text,
    details: {
      system: {
        id: system.id,
        name: system.name,
        empire: system.empire,
        police_level: system.policeLevel,
        pois,
        connections,
      },
    },
  };
}

/** The POI you are at (SpaceMolt's get_poi takes no arguments). */
export function getPoi(engine: Engine, player: Player): QueryResult<MmPoiDetails> {
  const poi = player.poiId === null ? undefined : engine.world.pois.get(player.poiId);
  if (!poi) throw new SimError('invalid_poi', 'you are between systems: wait for arrival, then call get_poi');
  const resources: MmDeposit[] = poi.deposits.map((d) => ({
    resource_id: d.resource,
    richness: d.richness,
    remaining: depositUnits(d, engine.tick),
    max: d.max,
  }));
  const kind = POI_CLASS[poi.type] === '' ? poi.type : `${poi.type} (${POI_CLASS[poi.type]})`;
  const text = [`POI: ${named(poi.name, poi.id)} | Type: ${kind}`, ...resourcesSection(poi, engine.tick)].join('\n');
  return { text, details: { poi: { ...poiSummary(engine, player, poi), system_id: poi.systemId, resources } } };
}

export function getMap(engine: Engine): QueryResult<MmMapDetails> {
  const systems = engine.world.order.map((id) => {
    const s = engine.world.systems.get(id) as StarSystem;
    return {
      id: s.id,
      name: s.name,
      empire: s.empire,
      police_level: s.policeLevel,
      has_station: s.pois.some((p) => p.hasBase),
      connections: [...s.lanes.keys()],
    };
  });
  const text = [
    `Galaxy map (${count(systems.length, 'system')}):`,
    ...table(
      ['id', 'name', 'empire', 'police', 'station', 'connections'],
      systems.map((s) => [
        s.id,
        s.name,
        s.empire ?? '-',
        s.police_level,
        yesNo(s.has_station),
        s.connections.join(','),
      ]),
    ),
  ].join('\n');
  return { text, details: { systems } };
}

/** `field` is the argument's name on the caller's face (target_system on v1, id on v2), for the error. */
export function findRoute(engine: Engine, player: Player, target: string, field: string): QueryResult<MmRouteDetails> {
  systemOrThrow(engine, target, field);
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
  const text = `Route to ${target}: ${jumps} jump(s), about ${formatNumber(fuel)} fuel at your current cargo.\n${route.join(' -> ')}`;
  return { text, details: { route, jumps, fuel_estimate: fuel } };
}

/** minimolt trades only raw resources; the real market files ores, ice and gas alike under `ore`. */
const MARKET_CATEGORY = 'ore';

/**
 * The depth shown in view_market's qty columns. minimolt's book has no orders: a station takes any quantity, each unit
 * moving its price 0.5%; 100 is what it takes or gives before the price has moved about 40%.
 */
export const QUOTED_DEPTH = 100;

export function viewMarket(engine: Engine, player: Player, itemId?: ItemId): QueryResult<MmMarketDetails> {
  const poi = player.poiId === null ? undefined : engine.world.pois.get(player.poiId);
  if (!poi?.market)
    throw new SimError('not_docked', 'no market here: view_market works at a station (travel to one and dock)');
  const entries = (itemId ? [itemId] : ITEM_IDS)
    .map((item) => {
      const entry = poi.market?.get(item);
      if (!entry) throw new SimError('invalid_params', `item_id: unknown item '${item}'`);
      return entry;
    })
    .sort((a, b) => itemName(a.item).localeCompare(itemName(b.item))); // the real summary lists by name within a category
  const items = entries.map((e) => ({
    item_id: e.item,
    base_price: BASE_PRICE[e.item],
    bid: e.buys ? quoteBid(e, engine.tick) : 0,
    ask: quoteAsk(e, engine.tick),
  }));
  // best_buy is what a seller gets (the station's bid), best_sell what a buyer pays (its ask); no buyer, no bid cell.
  const rows = entries.map((e) => {
    const ask = quoteAsk(e, engine.tick);
    const bid = e.buys ? quoteBid(e, engine.tick) : undefined;
    return [
      MARKET_CATEGORY,
      e.item,
      itemName(e.item),
      credits(ask),
      bid === undefined ? '' : credits(bid),
      bid === undefined ? '' : credits(ask - bid),
      QUOTED_DEPTH,
      bid === undefined ? 0 : QUOTED_DEPTH,
    ];
  });
  const text = [
    `Market summary at ${poi.name} (${count(rows.length, 'item')}):`,
    ...table(['category', 'item_id', 'item_name', 'best_sell', 'best_buy', 'spread', 'sell_qty', 'buy_qty'], rows),
    `Categories: ${MARKET_CATEGORY}`,
    `current_tick=${engine.tick} (pass as 'since' to view_market for the next diff)`,
  ].join('\n');
  return {
    text,
    details: {
      station: { poi_id: poi.id, system_id: poi.systemId, name: poi.name },
      items,
      fuel_price: FUEL_PRICE,
      repair_price: REPAIR_PRICE,
    },
  };
}

export function getCargo(player: Player): QueryResult<{ cargo: MmCargoItem[] }> {
  const cargo = [...player.cargo]
    .filter(([, quantity]) => quantity > 0)
    .map(([item_id, quantity]) => ({ item_id, quantity }));
  const used = cargoUsed(player);
  const text = [
    `Cargo: ${formatNumber(used)}/${formatNumber(player.ship.cargoCapacity)} used, ${formatNumber(player.ship.cargoCapacity - used)} available.`,
    ...table(
      ['item', 'qty', 'size'],
      cargo.map((c) => [itemName(c.item_id), c.quantity, 1]),
    ),
    '',
    `Credits: ${credits(player.credits)}`,
  ].join('\n');
  return { text, details: { cargo } };
}

/** The real server's name and category for each of minimolt's skills (mcp-probe get_skills). */
const SKILL_LABELS: Readonly<Record<SkillName, { name: string; category: string }>> = {
  mining: { name: 'Mining', category: 'Industry' },
  trading: { name: 'Trading', category: 'Commerce' },
  navigation: { name: 'Navigation', category: 'Ships' },
};
const MAX_SKILL_LEVEL = 100;

export function getSkills(player: Player): QueryResult<MmSkillsDetails> {
  const entries = SKILL_NAMES.map(
    (name) =>
      [
        name,
        { level: levelFor(player.xp[name]), xp: player.xp[name], next_level_xp: nextLevelXp(player.xp[name]) },
      ] as const,
  );
  const skills = Object.fromEntries(entries) as MmSkillsDetails['skills'];
  const text = [
    `Skills (${entries.length} trained, 0-${MAX_SKILL_LEVEL} scale):`,
    ...table(
      ['skill', 'name', 'category', 'level', 'progress'],
      entries.map(([name, s]) => [
        name,
        SKILL_LABELS[name].name,
        SKILL_LABELS[name].category,
        `${s.level}/${MAX_SKILL_LEVEL}`,
        `${formatNumber(s.xp)}/${formatNumber(s.next_level_xp)} XP`,
      ]),
    ),
  ].join('\n');
  return { text, details: { skills } };
}

export function getNotifications(
  player: Player,
  options: { limit: number; clear: boolean },
): QueryResult<MmNotificationsDetails> {
  const notifications = player.notifications.slice(0, options.limit);
  if (options.clear) player.notifications.splice(0, notifications.length);
  const remaining = player.notifications.length - (options.clear ? 0 : notifications.length);
  if (notifications.length === 0) return { text: 'No notifications.', details: { notifications, remaining } };
  // Chat names its speaker in <angle brackets>; a message is kept on one line so it cannot fake another notification.
  const lines = notifications.map((n) => {
    const kind = n.type === 'chat' && n.channel ? `chat/${n.channel}` : n.type;
    const message = n.message.replace(/[\r\n]+/g, ' ');
    return `#${n.id} [${kind}]${n.from ? ` <${n.from}>` : ''} ${message}`;
  });
  return {
    text: [`Notifications (${notifications.length}, ${remaining} more waiting):`, ...lines].join('\n'),
    details: { notifications, remaining },
  };
}

export function listLog(player: Player, index?: number): QueryResult {
  if (index !== undefined) {
    const entry = player.log[index];
    if (!entry) throw new SimError('invalid_params', `index: no entry ${index} (you have ${player.log.length})`);
    return {
      text: `Captain's log entry #${index}:\n${entry.text}`,
      details: { index, tick: entry.tick, entry: entry.text },
    };
  }
  const entries = player.log.map((e, i) => ({ index: i, tick: e.tick, preview: e.text.slice(0, 200) }));
  const lines = entries.map((e) => `#${e.index}\t${e.preview.replace(/[\t\r\n]+/g, ' ')}`);
  return {
    text: [`Captain's log (${count(entries.length, 'entry', 'entries')}):`, ...lines].join('\n'),
    details: { entries },
  };
}
