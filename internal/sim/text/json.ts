// The flat /mcp face's answers as JSON text in content[0].text, as the real legacy /mcp answers (public clients that
// played it JSON.parse that text: test/fixtures/spacemolt/real/spacemolt-news-… and zoea-nova-…). Shapes follow the
// published ones where there are any — login's `session_id` and `release_info`; get_system's `system` with `pois[]`
// objects (`id, name, type, class, online, has_base`), `connections[]` (`system_id, name, distance`) and
// `security_status` words; view_market's `items[]` with `best_buy`/`best_sell`, 0 meaning no orders;
// get_notifications' `{count, notifications, remaining, current_tick}` — and are ours elsewhere (get_status follows a
// public client's model: `player {…, current_system, current_poi, docked_at_base}`, `ship {…}`). Every action answer
// keeps the text face's sentence in `message`. Refusals stay `Error: code: message` text, as the real face's are.
import { securityText } from '../../spacemolt/index.js';
import type {
  MmMapDetails,
  MmMarketDetails,
  MmNotificationsDetails,
  MmPoiDetails,
  MmSystemDetails,
} from '../../spacemolt/index.js';
import { dashboard } from '../dashboard.js';
import type { Engine } from '../engine.js';
import type { SimOp } from '../faces/op-specs.js';
import type { Player } from '../player.js';
import { GU_PER_LANE_UNIT, POI_CLASS } from '../queries.js';

export interface JsonAnswerInput {
  op: SimOp;
  text: string;
  details: unknown;
  engine: Engine;
  player: Player | null;
  sessionId: string | undefined;
}

const RELEASE = { version: 'minimolt', notes: ['minimolt plays SpaceMolt’s rules on a small galaxy.'] };

function status(engine: Engine, player: Player): Record<string, unknown> {
  const board = dashboard(engine, player);
  const { location } = board;
  const out: Record<string, unknown> = {
    player: {
      id: board.player.id,
      username: board.player.username,
      empire: board.player.empire,
      credits: board.player.credits,
      current_system: location.system_id,
      current_poi: location.poi_id,
      docked_at_base: location.docked ? location.poi_id : null,
    },
    ship: board.ship,
    cargo: board.cargo,
    system: {
      id: location.system_id,
      name: location.system_name,
      security_status: securityText(location.police_level),
    },
    connections: [...(engine.world.systems.get(player.systemId)?.lanes.keys() ?? [])],
  };
  if (player.transit) {
    out.travel = {
      kind: player.transit.kind,
      destination: player.transit.kind === 'jump' ? player.transit.toSystem : player.transit.toPoi,
      ticks_remaining: location.ticks_remaining ?? 0,
    };
  }
  return out;
}

function system(details: MmSystemDetails, engine: Engine): Record<string, unknown> {
  const { system: s } = details;
  return {
    system: {
      id: s.id,
      name: s.name,
      empire: s.empire,
      pois: s.pois.map((poi) => ({
        id: poi.id,
        name: poi.name,
        type: poi.type,
        class: POI_CLASS[poi.type],
        online: [...engine.players.values()].filter((other) => other.poiId === poi.id).length,
        has_base: poi.has_base,
      })),
      connections: s.connections.map((c) => ({
        system_id: c.system_id,
        name: c.name,
        distance: Math.round(c.distance * GU_PER_LANE_UNIT),
      })),
    },
    security_status: securityText(s.police_level),
  };
}

function poi(details: MmPoiDetails): Record<string, unknown> {
  const { poi: p } = details;
  return {
    poi: {
      id: p.id,
      name: p.name,
      type: p.type,
      system_id: p.system_id,
      has_base: p.has_base,
      resources: p.resources.map((r) => ({
        resource_id: r.resource_id,
        richness: r.richness,
        remaining: r.remaining,
      })),
    },
  };
}

function map(details: MmMapDetails): Record<string, unknown> {
  return {
    systems: details.systems.map((s) => ({
      id: s.id,
      name: s.name,
      empire: s.empire,
      security_status: securityText(s.police_level),
      has_station: s.has_station,
      connections: s.connections,
    })),
  };
}

function market(details: MmMarketDetails, engine: Engine): Record<string, unknown> {
  return {
    base: details.station.name,
    station: { poi_id: details.station.poi_id, name: details.station.name },
    items: details.items.map((item) => ({
      item_id: item.item_id,
      item_name: item.item_id
        .split('_')
        .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
        .join(' '),
      category: 'ore',
      best_sell: item.ask,
      sell_quantity: 100,
      best_buy: item.bid,
      buy_quantity: item.bid > 0 ? 100 : 0,
    })),
    current_tick: engine.tick,
  };
}

function notifications(details: MmNotificationsDetails, engine: Engine): Record<string, unknown> {
  return {
    count: details.notifications.length,
    notifications: details.notifications.map((n) => ({
      id: n.id,
      type: n.type,
      tick: n.tick,
      ...(n.channel ? { channel: n.channel } : {}),
      ...(n.from ? { from: n.from } : {}),
      message: n.message,
    })),
    remaining: details.remaining,
    current_tick: engine.tick,
  };
}

/** The JSON an answer of `op` is on the flat face. */
export function jsonAnswer(input: JsonAnswerInput): Record<string, unknown> {
  const { op, text, details, engine, player, sessionId } = input;
  switch (op) {
    case 'login':
    case 'login_token':
      return { session_id: sessionId, release_info: RELEASE, message: text.split('\n')[0] };
    case 'register':
      return {
        session_id: sessionId,
        password: (details as { password?: string }).password,
        player_id: (details as { player_id?: string }).player_id,
        message: 'Save your password now: it is shown only once and cannot be recovered.',
      };
    case 'get_status':
      return player ? status(engine, player) : { message: text };
    case 'get_system':
      return system(details as MmSystemDetails, engine);
    case 'get_poi':
      return poi(details as MmPoiDetails);
    case 'get_map':
      return map(details as MmMapDetails);
    case 'view_market':
      return market(details as MmMarketDetails, engine);
    case 'get_notifications':
      return notifications(details as MmNotificationsDetails, engine);
    default:
      return { ...(details && typeof details === 'object' ? (details as Record<string, unknown>) : {}), message: text };
  }
}
