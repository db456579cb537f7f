// SpaceMolt's two MCP faces, spelled out once: Skipper's own name for each game command (an "op") and how the real
// server's flat v1 tools (/mcp) and grouped v2 tools (/mcp/v2, a tool plus an `action`) name it and its arguments.
// minimolt serves these faces; the game layer reads calls back to ops; the autopilot writes ops as calls. The table is
// checked against the public catalogues kept in test/fixtures/spacemolt.

export type GameOp =
  | 'register'
  | 'login'
  | 'login_token'
  | 'logout'
  | 'get_status'
  | 'get_system'
  | 'get_poi'
  | 'get_map'
  | 'find_route'
  | 'view_market'
  | 'get_cargo'
  | 'get_skills'
  | 'get_notifications'
  | 'captains_log_list'
  | 'captains_log_add'
  | 'chat'
  | 'help'
  | 'undock'
  | 'dock'
  | 'travel'
  | 'jump'
  | 'mine'
  | 'sell'
  | 'buy'
  | 'refuel'
  | 'repair';

export type FaceId = 'v1' | 'v2';

/** What a call costs: a tick-consuming action, a free action (changes something, no tick), or a read-only query. */
export type OpKind = 'mutation' | 'free' | 'query';

export const OP_KINDS: Readonly<Record<GameOp, OpKind>> = {
  register: 'free',
  login: 'free',
  login_token: 'free',
  logout: 'free',
  chat: 'free',
  captains_log_add: 'free',
  get_status: 'query',
  get_system: 'query',
  get_poi: 'query',
  get_map: 'query',
  find_route: 'query',
  view_market: 'query',
  get_cargo: 'query',
  get_skills: 'query',
  get_notifications: 'query',
  captains_log_list: 'query',
  help: 'query',
  undock: 'mutation',
  dock: 'mutation',
  travel: 'mutation',
  jump: 'mutation',
  mine: 'mutation',
  sell: 'mutation',
  buy: 'mutation',
  refuel: 'mutation',
  repair: 'mutation',
};

/**
 * Skipper's argument names (the same on every face): target (a POI id for travel, a system id for jump and
 * find_route), item_id, quantity, username, empire, password, token, registration_code, channel, content, target_id,
 * limit, clear, index. Each face maps them to its own names.
 */
export type OpArgs = Record<string, unknown>;

export interface FaceSpelling {
  /** The MCP tool's name. */
  tool: string;
  /** v2 only: the value of the `action` argument. */
  action?: string;
  /** Skipper's argument name -> the face's argument name, for the arguments this op takes there. */
  params: Readonly<Record<string, string>>;
}

const same = (...names: string[]): Record<string, string> => Object.fromEntries(names.map((name) => [name, name]));

const V1: Readonly<Partial<Record<GameOp, FaceSpelling>>> = {
  register: { tool: 'register', params: same('username', 'empire', 'registration_code') },
  login: { tool: 'login', params: same('username', 'password') },
  // Not in v0.547's flat list (CoinAnole/spacemolt-docs skill.md): spelled as v1 spells every other action, unconfirmed.
  login_token: { tool: 'login_token', params: same('token') },
  logout: { tool: 'logout', params: {} },
  help: { tool: 'help', params: {} },
  get_status: { tool: 'get_status', params: {} },
  get_system: { tool: 'get_system', params: {} },
  get_poi: { tool: 'get_poi', params: {} },
  get_map: { tool: 'get_map', params: {} },
  find_route: { tool: 'find_route', params: { target: 'target_system' } },
  view_market: { tool: 'view_market', params: same('item_id') },
  get_cargo: { tool: 'get_cargo', params: {} },
  get_skills: { tool: 'get_skills', params: {} },
  get_notifications: { tool: 'get_notifications', params: same('limit', 'clear') },
  captains_log_list: { tool: 'captains_log_list', params: same('index') },
  captains_log_add: { tool: 'captains_log_add', params: { content: 'entry' } },
  chat: { tool: 'chat', params: same('channel', 'content', 'target_id') },
  undock: { tool: 'undock', params: {} },
  dock: { tool: 'dock', params: {} },
  travel: { tool: 'travel', params: { target: 'target_poi' } },
  jump: { tool: 'jump', params: { target: 'target_system' } },
  mine: { tool: 'mine', params: {} },
  sell: { tool: 'sell', params: same('item_id', 'quantity') },
  buy: { tool: 'buy', params: same('item_id', 'quantity') },
  refuel: { tool: 'refuel', params: same('quantity') },
  repair: { tool: 'repair', params: {} },
};

const core = (action: string, params: Record<string, string> = {}): FaceSpelling => ({
  tool: 'spacemolt',
  action,
  params,
});

const V2: Readonly<Partial<Record<GameOp, FaceSpelling>>> = {
  register: { tool: 'spacemolt_auth', action: 'register', params: same('username', 'empire', 'registration_code') },
  login: { tool: 'spacemolt_auth', action: 'login', params: same('username', 'password') },
  // A single-use token from POST /api/player/{id}/ws-token (SpaceMolt/spacemolt-lib COMMANDS.md, v0.547).
  login_token: { tool: 'spacemolt_auth', action: 'login_token', params: same('token') },
  logout: { tool: 'spacemolt_auth', action: 'logout', params: {} },
  get_status: core('get_status'),
  get_system: core('get_system'),
  get_poi: core('get_poi'),
  get_map: core('get_map'),
  find_route: core('find_route', { target: 'id' }),
  view_market: { tool: 'spacemolt_market', action: 'view_market', params: same('item_id') },
  get_cargo: core('get_cargo'),
  get_skills: core('get_skills'),
  get_notifications: core('get_notifications', same('limit', 'clear')),
  captains_log_list: { tool: 'spacemolt_social', action: 'captains_log_list', params: same('index') },
  captains_log_add: { tool: 'spacemolt_social', action: 'captains_log_add', params: same('content') },
  chat: {
    tool: 'spacemolt_social',
    action: 'chat',
    params: { channel: 'target', content: 'content', target_id: 'target_id' },
  },
  undock: core('undock'),
  dock: core('dock'),
  travel: core('travel', { target: 'id' }),
  jump: core('jump', { target: 'id' }),
  mine: core('mine'),
  sell: core('sell', { item_id: 'id', quantity: 'quantity' }),
  buy: core('buy', { item_id: 'id', quantity: 'quantity' }),
  refuel: core('refuel', same('quantity')),
  repair: core('repair'),
};

export const FACES: Readonly<Record<FaceId, Readonly<Partial<Record<GameOp, FaceSpelling>>>>> = { v1: V1, v2: V2 };

/** The v2 group tools minimolt serves, in tools/list order. */
export const V2_TOOLS = [
  'spacemolt_auth',
  'spacemolt',
  'spacemolt_market',
  'spacemolt_social',
  'spacemolt_storage',
] as const;

export function spelling(face: FaceId, op: GameOp): FaceSpelling | undefined {
  return FACES[face][op];
}

/** An op with Skipper's argument names -> the face's tool call. Undefined when the face lacks the op. Arguments the
 * op does not take on that face are dropped (the real server rejects unknown parameters). */
export function toFaceCall(
  face: FaceId,
  op: GameOp,
  args: OpArgs = {},
): { name: string; args: Record<string, unknown> } | undefined {
  const spelled = spelling(face, op);
  if (!spelled) return undefined;
  const out: Record<string, unknown> = spelled.action ? { action: spelled.action } : {};
  for (const [ours, theirs] of Object.entries(spelled.params)) {
    if (args[ours] !== undefined) out[theirs] = args[ours];
  }
  return { name: spelled.tool, args: out };
}

/** A face's tool call -> the op and Skipper's argument names. Undefined when the call is not one of the table's ops. */
export function fromFaceCall(
  face: FaceId,
  name: string,
  args: Record<string, unknown>,
): { op: GameOp; args: OpArgs } | undefined {
  const action = face === 'v2' && typeof args.action === 'string' ? args.action : undefined;
  const found = callIndex(face).get(name)?.get(action);
  if (!found) return undefined;
  const out: OpArgs = {};
  for (const [ours, theirs] of found.params) if (args[theirs] !== undefined) out[ours] = args[theirs];
  return { op: found.op, args: out };
}

interface IndexedSpelling {
  op: GameOp;
  /** [Skipper's name, the face's name] of each argument, in the table's order. */
  params: ReadonlyArray<readonly [string, string]>;
}

type CallIndex = Map<string, Map<string | undefined, IndexedSpelling>>;

const callIndexes = new Map<FaceId, CallIndex>();

/** A face's table read backwards, built once: tool name → action (undefined for none; v1 has none) → the op it spells,
 * the first in the table's order as a scan of the table would find. Every game call and autopilot round reads calls
 * back to ops. */
function callIndex(face: FaceId): CallIndex {
  let index = callIndexes.get(face);
  if (index) return index;
  index = new Map();
  for (const [op, spelled] of Object.entries(FACES[face]) as Array<[GameOp, FaceSpelling]>) {
    // A v1 call is read without its action: only spellings without one can match it.
    if (face === 'v1' && spelled.action !== undefined) continue;
    const byAction = index.get(spelled.tool) ?? new Map<string | undefined, IndexedSpelling>();
    index.set(spelled.tool, byAction);
    if (!byAction.has(spelled.action)) byAction.set(spelled.action, { op, params: Object.entries(spelled.params) });
  }
  callIndexes.set(face, index);
  return index;
}

/** Which SpaceMolt face a tool list is: v2 when a grouped `spacemolt` or `spacemolt_auth` tool takes an `action`,
 * v1 when SpaceMolt's flat `get_status` and `mine`, `travel` or `jump` exist; undefined for any other game. The one
 * detector: the game layer's profile, the runner and the built-in captains all ask it. */
export function detectFace(
  tools: ReadonlyArray<{ name: string; actions?: unknown; inputSchema?: { properties?: Record<string, unknown> } }>,
): FaceId | undefined {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const grouped = (name: string): boolean => {
    const tool = byName.get(name);
    return tool !== undefined && (tool.actions !== undefined || tool.inputSchema?.properties?.action !== undefined);
  };
  if (grouped('spacemolt') || grouped('spacemolt_auth')) return 'v2';
  if (byName.has('get_status') && (byName.has('mine') || byName.has('travel') || byName.has('jump'))) return 'v1';
  return undefined;
}
