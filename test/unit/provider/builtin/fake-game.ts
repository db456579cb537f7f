// A tiny SpaceMolt for the built-in providers' face tests: the real v1/v2 tool catalogues (test/fixtures/spacemolt) as
// ToolSpecs, and one system (Sol Central station, Sol Belt 5 AU away) that answers calls the way the game layer would
// hand them on: GameObservations read from text (op, state block on actions only, details; no tick). It is strict
// like the real server: unknown arguments are refused, travel while docked is refused, register needs one try.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ToolCall, ToolSpec } from '../../../../internal/shared/index.js';
import type { FaceId, GameObservation, GameOp } from '../../../../internal/spacemolt/index.js';
import { fromFaceCall } from '../../../../internal/spacemolt/index.js';

interface CatalogParam {
  required?: boolean;
  type?: string;
  enum?: string[];
}
interface CatalogAction {
  name: string;
  mutation: boolean;
  params: Record<string, CatalogParam>;
}
interface CatalogTool {
  name: string;
  mutation?: boolean;
  params?: Record<string, CatalogParam>;
  actions?: CatalogAction[];
}

function catalog(face: FaceId): CatalogTool[] {
  const url = new URL(`../../../fixtures/spacemolt/catalog-${face}.json`, import.meta.url);
  return (JSON.parse(readFileSync(fileURLToPath(url), 'utf8')) as { tools: CatalogTool[] }).tools;
}

function schema(params: Record<string, CatalogParam>): ToolSpec['inputSchema'] {
  const properties = Object.fromEntries(
    Object.entries(params).map(([name, p]) => [
      name,
      { type: p.type ?? 'string', ...(p.enum ? { enum: p.enum } : {}) },
    ]),
  );
  return {
    type: 'object',
    properties,
    required: Object.entries(params)
      .filter(([, p]) => p.required)
      .map(([name]) => name),
  };
}

/** The real server's tools as the game layer lists them, and the parameters each (tool, action) accepts. */
export function realFace(face: FaceId): { tools: ToolSpec[]; accepts: (call: ToolCall) => string[] } {
  const accepted = new Map<string, string[]>();
  const tools = catalog(face).map((tool): ToolSpec => {
    if (face === 'v1' || !tool.actions || tool.actions.length === 0) {
      accepted.set(tool.name, Object.keys(tool.params ?? {}));
      return {
        name: tool.name,
        description: tool.name,
        inputSchema: schema(tool.params ?? {}),
        readOnly: !tool.mutation,
        kind: tool.mutation ? 'mutation' : 'query',
      };
    }
    const union: Record<string, CatalogParam> = {};
    for (const action of tool.actions) {
      Object.assign(union, action.params);
      accepted.set(`${tool.name} ${action.name}`, ['action', ...Object.keys(action.params)]);
    }
    const inputSchema = schema(union);
    inputSchema.properties = {
      action: { type: 'string', enum: tool.actions.map((a) => a.name) },
      ...inputSchema.properties,
    };
    inputSchema.required = ['action'];
    return {
      name: tool.name,
      description: tool.name,
      inputSchema,
      readOnly: false,
      actions: Object.fromEntries(tool.actions.map((a) => [a.name, a.mutation ? 'mutation' : 'query'])),
    };
  });
  const accepts = (call: ToolCall): string[] => {
    const args = JSON.parse(call.arguments) as Record<string, unknown>;
    return (
      accepted.get(face === 'v2' && typeof args.action === 'string' ? `${call.name} ${args.action}` : call.name) ?? []
    );
  };
  return { tools, accepts };
}

const POIS = {
  sol_central: { name: 'Sol Central', type: 'station' as const, base: true },
  sol_belt: { name: 'Sol Belt', type: 'asteroid_belt' as const, base: false },
};
type PoiId = keyof typeof POIS;

export interface GameAnswer {
  data: GameObservation;
  isError: boolean;
  text: string;
  op: GameOp | undefined;
}

/** The one player's world: where the ship is, its fuel, credits and copper, and the belt's copper left. */
interface World {
  loggedIn: boolean;
  poi: PoiId;
  docked: boolean;
  fuel: number;
  credits: number;
  copper: number;
  remaining: number;
}

const CAPACITY = 20;

function statusOf(s: World): GameObservation {
  return {
    player: { username: 'nova', empire: 'solarian', credits: s.credits },
    ship: {
      name: 'Theoria',
      hull: 100,
      max_hull: 100,
      fuel: s.fuel,
      max_fuel: 100,
      cargo_used: s.copper,
      cargo_capacity: CAPACITY,
      speed: 1,
    },
    location: {
      system_id: 'sol',
      system_name: 'Sol',
      poi_id: s.poi,
      poi_name: POIS[s.poi].name,
      poi_type: POIS[s.poi].type,
      docked: s.docked,
      police_level: 100,
      in_transit: false,
    },
    ...(s.copper > 0 ? { cargo: [{ item_id: 'copper_ore' as const, quantity: s.copper }] } : {}),
  };
}

/** How a call is answered: an error, or its details with the state block (actions) or without (queries). */
interface Reply {
  fail(code: string, message: string): GameAnswer;
  done(details: unknown, text?: string, action?: boolean): GameAnswer;
}

function replyFor(op: GameOp | undefined, s: World): Reply {
  return {
    fail: (code, message) => ({
      op,
      isError: true,
      text: `Error: ${code}: ${message}`,
      data: { op, error: { code, message } },
    }),
    done: (details, text = `${op} ok`, action = true) => ({
      op,
      isError: false,
      text,
      data: { op, ...(action ? statusOf(s) : {}), details },
    }),
  };
}

/** What the player looks at: status, map, system, POI and market; undefined for any other op. */
function answerQuery(op: GameOp, s: World, reply: Reply): GameAnswer | undefined {
  const { fail, done } = reply;
  switch (op) {
    case 'get_status':
      return done(undefined, 'status', true);
    case 'get_map':
      return done(
        { systems: [{ id: 'sol', name: 'Sol', police_level: 100, has_station: true, connections: [] }] },
        'map',
        false,
      );
    case 'get_system':
      return done(
        {
          system: {
            id: 'sol',
            name: 'Sol',
            police_level: 100,
            connections: [],
            pois: (Object.keys(POIS) as PoiId[]).map((id) => ({
              id,
              name: POIS[id].name,
              type: POIS[id].type,
              has_base: POIS[id].base,
              distance: id === s.poi ? 0 : 5,
            })),
          },
        },
        'system',
        false,
      );
    case 'get_poi':
      return done(
        {
          poi: {
            id: s.poi,
            name: POIS[s.poi].name,
            type: POIS[s.poi].type,
            has_base: POIS[s.poi].base,
            system_id: 'sol',
            resources:
              s.poi === 'sol_belt'
                ? [{ resource_id: 'copper_ore', richness: 4, remaining: s.remaining, max: 600 }]
                : [],
          },
        },
        'poi',
        false,
      );
    case 'view_market':
      if (!s.docked) return fail('not_docked', 'dock first');
      return done(
        {
          station: { poi_id: 'sol_central', system_id: 'sol', name: 'Sol Central' },
          items: [{ item_id: 'copper_ore', base_price: 12, bid: 14, ask: 18 }],
          fuel_price: 2,
          repair_price: 3,
        },
        'market',
        false,
      );
  }
  return undefined;
}

/** What the player does: travel, undock, dock, mine, sell, refuel; undefined for any other op. */
function answerAction(op: GameOp, args: Record<string, unknown>, s: World, reply: Reply): GameAnswer | undefined {
  const { fail, done } = reply;
  switch (op) {
    case 'travel': {
      const target = args.target;
      if (typeof target !== 'string' || !(target in POIS)) return fail('invalid_poi', `no POI ${String(target)}`);
      if (s.docked) return fail('docked', 'undock first');
      s.poi = target as PoiId;
      s.fuel -= 4;
      return done({ arrived_at: target, fuel_used: 4, ticks: 5, auto_undocked: false });
    }
    case 'undock':
      if (!s.docked) return fail('not_docked', 'not docked');
      s.docked = false;
      return done({});
    case 'dock':
      if (!POIS[s.poi].base) return fail('no_base', 'no station here');
      s.docked = true;
      return done({});
    case 'mine': {
      if (s.docked || s.poi !== 'sol_belt') return fail('no_resources', 'nothing to mine here');
      const quantity = Math.min(5, CAPACITY - s.copper);
      s.copper += quantity;
      s.remaining -= quantity;
      return done({ resource_id: 'copper_ore', quantity, deposit_remaining: s.remaining });
    }
    case 'sell': {
      if (!s.docked) return fail('not_docked', 'dock first');
      const quantity = Math.min(Number(args.quantity), s.copper);
      s.copper -= quantity;
      s.credits += quantity * 14;
      return done({ item_id: 'copper_ore', quantity_sold: quantity, total_earned: quantity * 14, average_price: 14 });
    }
    case 'refuel': {
      if (!s.docked) return fail('not_docked', 'dock first');
      const bought = 100 - s.fuel;
      s.fuel = 100;
      s.credits -= bought * 2;
      return done({});
    }
  }
  return undefined;
}

export function fakeGame(face: FaceId): (call: ToolCall) => GameAnswer {
  const s: World = {
    loggedIn: false,
    poi: 'sol_central',
    docked: true,
    fuel: 64,
    credits: 150,
    copper: 0,
    remaining: 500,
  };
  return (call) => {
    const read = fromFaceCall(face, call.name, JSON.parse(call.arguments) as Record<string, unknown>);
    const op = read?.op;
    const args = read?.args ?? {};
    const reply = replyFor(op, s);
    if (!op) return reply.fail('invalid_payload', `unknown command ${call.name}`);
    if (!s.loggedIn && op !== 'register') return reply.fail('not_authenticated', 'log in or register first');
    if (op === 'register') {
      s.loggedIn = true;
      return reply.done({ player_id: 'p1', password: '[saved]', message: 'welcome' });
    }
    return (
      answerQuery(op, s, reply) ??
      answerAction(op, args, s, reply) ??
      reply.fail('invalid_payload', `${op} is not in this test`)
    );
  };
}
