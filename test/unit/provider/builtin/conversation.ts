// Test helpers: SpaceMolt's two faces as tool lists (built from the shared faces table), a small synthetic world, and
// conversations made of tool results as the game layer leaves them (GameObservations: op, state block, details; no
// tick, no positions; queries carry no state block, actions do).
import type { CallKind, CompletionResponse, Message, ToolCall, ToolSpec } from '../../../../internal/shared/index.js';
import type { FaceId, GameObservation, GameOp, MmCargoItem, OpArgs } from '../../../../internal/spacemolt/index.js';
import { FACES, OP_KINDS, fromFaceCall, toFaceCall } from '../../../../internal/spacemolt/index.js';

const TYPES: Record<string, unknown> = {
  quantity: { type: 'integer', minimum: 1 },
  limit: { type: 'integer', minimum: 1, maximum: 100 },
  clear: { type: 'boolean' },
  index: { type: 'integer', minimum: 0 },
  empire: { type: 'string', enum: ['solarian', 'voidborn', 'crimson', 'nebula', 'outerrim'] },
};
/** Skipper's argument names each op cannot do without. */
const REQUIRED: Partial<Record<GameOp, string[]>> = {
  register: ['username', 'empire'],
  login: ['username', 'password'],
  travel: ['target'],
  jump: ['target'],
  find_route: ['target'],
  sell: ['item_id', 'quantity'],
  buy: ['item_id', 'quantity'],
  chat: ['channel', 'content'],
};

function schemaOf(op: GameOp, face: FaceId): { properties: Record<string, unknown>; required: string[] } {
  const params = FACES[face][op]?.params ?? {};
  const properties = Object.fromEntries(
    Object.entries(params).map(([ours, theirs]) => [theirs, TYPES[ours] ?? { type: 'string' }]),
  );
  return { properties, required: (REQUIRED[op] ?? []).map((ours) => params[ours] as string) };
}

/** v1: one flat tool per op with its kind; v2: grouped tools with an `action` enum and per-action kinds. */
export function toolsFor(face: FaceId): ToolSpec[] {
  const ops = Object.keys(FACES[face]) as GameOp[];
  if (face === 'v1') {
    return ops.map((op) => {
      const { properties, required } = schemaOf(op, 'v1');
      return {
        name: op,
        description: op,
        inputSchema: { type: 'object', properties, required },
        readOnly: OP_KINDS[op] === 'query',
        kind: OP_KINDS[op],
      };
    });
  }
  const groups = new Map<string, ToolSpec & { actions: Record<string, CallKind> }>();
  for (const op of ops) {
    const spelled = FACES.v2[op]!;
    const group = groups.get(spelled.tool) ?? {
      name: spelled.tool,
      description: spelled.tool,
      readOnly: false,
      actions: {},
      inputSchema: {
        type: 'object',
        properties: { action: { type: 'string', enum: [] as string[] } },
        required: ['action'],
      },
    };
    group.actions[spelled.action!] = OP_KINDS[op];
    (group.inputSchema.properties!.action as { enum: string[] }).enum.push(spelled.action!);
    Object.assign(group.inputSchema.properties!, schemaOf(op, 'v2').properties);
    groups.set(spelled.tool, group);
  }
  return [...groups.values()];
}

export const TOOLS_V1 = toolsFor('v1');
export const TOOLS_V2 = toolsFor('v2');
export const TOOLS = TOOLS_V1;

/** A call read back as Skipper's op and argument names (either face). */
export function opCall(call: ToolCall): { op: GameOp; args: OpArgs } {
  const args = JSON.parse(call.arguments) as Record<string, unknown>;
  const read = fromFaceCall('v1', call.name, args) ?? fromFaceCall('v2', call.name, args);
  if (!read) throw new Error(`not a known op: ${call.name} ${call.arguments}`);
  return read;
}

export const opsOf = (response: CompletionResponse): GameOp[] => response.message.toolCalls.map((c) => opCall(c).op);
export const argsOf = (response: CompletionResponse, index = 0): OpArgs =>
  opCall(response.message.toolCalls[index]!).args;

/** Sol (police 100): Sol Central station, Sol Belt 5 AU from it. Wilds (police 25) next door. */
export function dashboard(
  overrides: {
    poi?: string;
    docked?: boolean;
    system?: string;
    police?: number;
    cargo?: MmCargoItem[];
    fuel?: number;
    hull?: number;
    credits?: number;
  } = {},
): GameObservation {
  const cargo = overrides.cargo ?? [];
  const poi = overrides.poi ?? 'sol_central';
  return {
    player: { username: 'captain_test', empire: 'solarian', credits: overrides.credits ?? 150 },
    ship: {
      name: 'Theoria',
      hull: overrides.hull ?? 100,
      max_hull: 100,
      fuel: overrides.fuel ?? 100,
      max_fuel: 100,
      cargo_used: cargo.reduce((n, c) => n + c.quantity, 0),
      cargo_capacity: 70,
      speed: 1,
    },
    location: {
      system_id: overrides.system ?? 'sol',
      system_name: overrides.system === 'wilds' ? 'Wilds' : 'Sol',
      poi_id: poi,
      poi_name: poi,
      poi_type: poi.includes('belt') ? 'asteroid_belt' : poi.includes('gate') ? 'gate' : 'station',
      docked: overrides.docked ?? false,
      police_level: overrides.police ?? 100,
      in_transit: false,
    },
    cargo,
  };
}

/** get_system as seen from Sol Central (distances are from where the ship is). */
export const SOL_SYSTEM = {
  details: {
    system: {
      id: 'sol',
      name: 'Sol',
      police_level: 100,
      pois: [
        { id: 'sol_central', name: 'Sol Central', type: 'station', has_base: true, distance: 0 },
        { id: 'sol_belt', name: 'Sol Belt', type: 'asteroid_belt', has_base: false, distance: 5 },
      ],
      connections: [{ system_id: 'wilds', name: 'Wilds', distance: 10, police_level: 25 }],
    },
  },
};

/** get_system as seen from Wilds Belt. */
export const WILDS_SYSTEM = {
  details: {
    system: {
      id: 'wilds',
      name: 'Wilds',
      police_level: 25,
      pois: [
        { id: 'wilds_gate', name: 'Wilds Gate', type: 'gate', has_base: false, distance: 2 },
        { id: 'wilds_belt', name: 'Wilds Belt', type: 'asteroid_belt', has_base: false, distance: 0 },
      ],
      connections: [{ system_id: 'sol', name: 'Sol', distance: 10, police_level: 100 }],
    },
  },
};

export const MAP = {
  details: {
    systems: [
      { id: 'sol', name: 'Sol', police_level: 100, has_station: true, connections: ['wilds'] },
      { id: 'wilds', name: 'Wilds', police_level: 25, has_station: false, connections: ['sol'] },
    ],
  },
};

export const SOL_BELT = {
  details: {
    poi: {
      id: 'sol_belt',
      name: 'Sol Belt',
      type: 'asteroid_belt',
      has_base: false,
      system_id: 'sol',
      resources: [
        { resource_id: 'iron_ore', richness: 6, remaining: 900, max: 1000 },
        { resource_id: 'copper_ore', richness: 4, remaining: 500, max: 600 },
      ],
    },
  },
};

export const MARKET = {
  details: {
    station: { poi_id: 'sol_central', system_id: 'sol', name: 'Sol Central' },
    items: [
      { item_id: 'iron_ore', base_price: 8, bid: 9, ask: 11 },
      { item_id: 'copper_ore', base_price: 12, bid: 14, ask: 18 },
    ],
    fuel_price: 2,
    repair_price: 3,
  },
};

/** A conversation under construction on one face: system prompt, user turns, assistant calls and their results. */
export class Conversation {
  readonly messages: Message[] = [{ id: 'm0', role: 'system', content: 'You are a captain.', createdAt: 0 }];
  private n = 0;
  private calls = 0;

  constructor(readonly face: FaceId = 'v1') {}

  private id(): string {
    this.n += 1;
    return `m${this.n}`;
  }

  /** Lets time go by before the next message (createdAt counts one per message otherwise). */
  later(by: number): this {
    this.n += by;
    return this;
  }

  user(text = 'Autoplay turn 1. Goal: earn credits.'): this {
    this.messages.push({ id: this.id(), role: 'user', content: text, createdAt: this.n });
    return this;
  }

  /** An assistant call of `op` (made here, not by the provider), spelled for the face, and its result. */
  result(
    op: GameOp,
    data: object,
    options: { args?: OpArgs; isError?: boolean; text?: string; withoutOp?: boolean } = {},
  ): this {
    this.calls += 1;
    const callId = `call_test_${this.calls}`;
    const call = toFaceCall(this.face, op, options.args ?? {})!;
    this.messages.push({
      id: this.id(),
      role: 'assistant',
      content: '',
      createdAt: this.n,
      toolCalls: [{ id: callId, name: call.name, arguments: JSON.stringify(call.args) }],
    });
    return this.answer(callId, call.name, options.withoutOp ? data : { op, ...data }, options);
  }

  /** The result of one of the provider's calls, with the op the game layer would read from it. */
  answerCall(call: ToolCall, data: object, options: { isError?: boolean; text?: string } = {}): this {
    return this.answer(call.id, call.name, { op: opCall(call).op, ...data }, options);
  }

  answer(callId: string, name: string, data: object, options: { isError?: boolean; text?: string } = {}): this {
    const error = (data as { error?: { code: string; message: string } }).error;
    this.messages.push({
      id: this.id(),
      role: 'tool',
      toolCallId: callId,
      toolName: name,
      data,
      isError: options.isError ?? error !== undefined,
      content: options.text ?? (error ? `Error: ${error.code}: ${error.message}` : `${name} ok`),
      createdAt: this.n,
    });
    return this;
  }

  /** Appends the provider's reply as the assistant message. */
  reply(response: CompletionResponse): this {
    this.messages.push({
      id: this.id(),
      role: 'assistant',
      content: response.message.content,
      toolCalls: response.message.toolCalls,
      createdAt: this.n,
    });
    return this;
  }
}

export function errorData(code: string, message = code): { error: { code: string; message: string } } {
  return { error: { code, message } };
}

/** A conversation where the autopilot already knows Sol, the map, the belt and the market, docked at Sol Central. */
export function surveyed(face: FaceId = 'v1'): Conversation {
  return new Conversation(face)
    .user()
    .result('get_status', dashboard({ docked: true }))
    .result('get_map', MAP)
    .result('get_system', SOL_SYSTEM)
    .result('get_poi', SOL_BELT)
    .result('view_market', MARKET);
}

/** Sol with two stations 5 AU from the belt: Sol Central (the one B knows) and Sol Port (B never docked there). */
export const SOL_TWO_STATIONS = {
  details: {
    system: {
      id: 'sol',
      name: 'Sol',
      police_level: 100,
      pois: [
        { id: 'sol_central', name: 'Sol Central', type: 'station', has_base: true, distance: 5 },
        { id: 'sol_port', name: 'Sol Port', type: 'station', has_base: true, distance: 5 },
        { id: 'sol_belt', name: 'Sol Belt', type: 'asteroid_belt', has_base: false, distance: 0 },
      ],
      connections: [{ system_id: 'wilds', name: 'Wilds', distance: 10, police_level: 25 }],
    },
  },
};

export const IRON_BELT = {
  details: {
    poi: {
      id: 'sol_belt',
      name: 'Sol Belt',
      type: 'asteroid_belt',
      has_base: false,
      system_id: 'sol',
      resources: [{ resource_id: 'iron_ore', richness: 6, remaining: 900, max: 1000 }],
    },
  },
};

/** A station's market answer: iron at `ironBid` (asked 3 more), and `extra` details (fuel and repair prices). */
export function ironMarket(poiId: string, name: string, ironBid: number, extra: object = {}): object {
  return {
    details: {
      station: { poi_id: poiId, system_id: 'sol', name },
      items: [{ item_id: 'iron_ore', base_price: 8, bid: ironBid, ask: ironBid + 3 }],
      ...extra,
    },
  };
}
