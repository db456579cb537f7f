// Test helpers: a synthetic minimolt world and conversations made of minimolt-shaped tool results.
import type { CompletionResponse, Message, MmDashboard, ToolSpec } from '../../../../internal/shared/index.js';

const QUERIES = ['help', 'get_status', 'get_system', 'get_poi', 'get_map', 'find_route', 'view_market', 'get_cargo',
  'get_skills', 'get_notifications', 'captains_log_list'];
const FREE = ['register', 'login', 'logout', 'chat', 'captains_log_add'];
const MUTATIONS = ['undock', 'dock', 'travel', 'jump', 'mine', 'sell', 'buy', 'refuel', 'repair'];

const SCHEMAS: Record<string, ToolSpec['inputSchema']> = {
  register: { type: 'object', properties: { username: { type: 'string' }, empire: { type: 'string',
    enum: ['solarian', 'voidborn', 'crimson', 'nebula', 'outerrim'] } }, required: ['username', 'empire'] },
  get_system: { type: 'object', properties: { system_id: { type: 'string' } } },
  get_poi: { type: 'object', properties: { poi_id: { type: 'string' } } },
  find_route: { type: 'object', properties: { target_system: { type: 'string' } }, required: ['target_system'] },
  travel: { type: 'object', properties: { target_poi: { type: 'string' } }, required: ['target_poi'] },
  jump: { type: 'object', properties: { target_system: { type: 'string' } }, required: ['target_system'] },
  mine: { type: 'object', properties: { resource_id: { type: 'string' } } },
  sell: { type: 'object', properties: { item_id: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } },
    required: ['item_id', 'quantity'] },
  buy: { type: 'object', properties: { item_id: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } },
    required: ['item_id', 'quantity'] },
  chat: { type: 'object', properties: { channel: { type: 'string', enum: ['system', 'local'] },
    content: { type: 'string' } }, required: ['channel', 'content'] },
  get_notifications: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 100 },
    clear: { type: 'boolean' } } },
};

export const TOOLS: ToolSpec[] = [...QUERIES, ...FREE, ...MUTATIONS].map((name) => ({
  name,
  description: name,
  inputSchema: SCHEMAS[name] ?? { type: 'object', properties: {} },
  readOnly: QUERIES.includes(name),
}));

export const MUTATION_NAMES: ReadonlySet<string> = new Set(MUTATIONS);

/** Sol (police 100): Sol Central station at the origin, Sol Belt 5 AU away. Wilds (police 25) next door. */
export function dashboard(overrides: {
  poi?: string; docked?: boolean; system?: string; police?: number; cargo?: MmDashboard['cargo'];
  fuel?: number; hull?: number; credits?: number; tick?: number;
} = {}): MmDashboard {
  const cargo = overrides.cargo ?? [];
  const poi = overrides.poi ?? 'sol_central';
  return {
    player: { id: 'p1', username: 'captain_test', empire: 'solarian', credits: overrides.credits ?? 150 },
    ship: { name: 'Theoria', hull: overrides.hull ?? 100, max_hull: 100, fuel: overrides.fuel ?? 100, max_fuel: 100,
      cargo_used: cargo.reduce((n, c) => n + c.quantity, 0), cargo_capacity: 70, speed: 1 },
    location: { system_id: overrides.system ?? 'sol', system_name: overrides.system === 'wilds' ? 'Wilds' : 'Sol',
      poi_id: poi, poi_name: poi, poi_type: poi.includes('belt') ? 'asteroid_belt' : poi.includes('gate') ? 'gate' : 'station',
      docked: overrides.docked ?? false, police_level: overrides.police ?? 100, in_transit: false },
    cargo,
    tick: overrides.tick ?? 10,
  };
}

export const SOL_SYSTEM = { details: { system: { id: 'sol', name: 'Sol', empire: 'solarian', police_level: 100,
  pois: [
    { id: 'sol_central', name: 'Sol Central', type: 'station', has_base: true, position: { x: 0, y: 0 } },
    { id: 'sol_belt', name: 'Sol Belt', type: 'asteroid_belt', has_base: false, position: { x: 3, y: 4 } },
  ],
  connections: [{ system_id: 'wilds', name: 'Wilds', distance: 10, police_level: 25 }] } } };

export const WILDS_SYSTEM = { details: { system: { id: 'wilds', name: 'Wilds', empire: null, police_level: 25,
  pois: [
    { id: 'wilds_gate', name: 'Wilds Gate', type: 'gate', has_base: false, position: { x: 0, y: 0 } },
    { id: 'wilds_belt', name: 'Wilds Belt', type: 'asteroid_belt', has_base: false, position: { x: 2, y: 0 } },
  ],
  connections: [{ system_id: 'sol', name: 'Sol', distance: 10, police_level: 100 }] } } };

export const MAP = { details: { systems: [
  { id: 'sol', name: 'Sol', empire: 'solarian', police_level: 100, has_station: true, connections: ['wilds'] },
  { id: 'wilds', name: 'Wilds', empire: null, police_level: 25, has_station: false, connections: ['sol'] },
] } };

export const SOL_BELT = { details: { poi: { id: 'sol_belt', name: 'Sol Belt', type: 'asteroid_belt', has_base: false,
  position: { x: 3, y: 4 }, system_id: 'sol', resources: [
    { resource_id: 'iron_ore', richness: 6, remaining: 900, max: 1000 },
    { resource_id: 'copper_ore', richness: 4, remaining: 500, max: 600 },
  ] } } };

export const MARKET = { details: { station: { poi_id: 'sol_central', system_id: 'sol', name: 'Sol Central' },
  items: [
    { item_id: 'iron_ore', base_price: 8, bid: 9, ask: 11.25 },
    { item_id: 'copper_ore', base_price: 12, bid: 14, ask: 17.5 },
  ], fuel_price: 2, repair_price: 3 } };

/** A conversation under construction: system prompt, user turns, assistant calls and their results. */
export class Conversation {
  readonly messages: Message[] = [{ id: 'm0', role: 'system', content: 'You are a captain.', createdAt: 0 }];
  private n = 0;
  private calls = 0;

  private id(): string {
    this.n += 1;
    return `m${this.n}`;
  }

  user(text = 'Autoplay turn 1. Goal: earn credits.'): this {
    this.messages.push({ id: this.id(), role: 'user', content: text, createdAt: this.n });
    return this;
  }

  /** An assistant call (made here, not by the provider) and its result. */
  result(name: string, data: unknown, options: { args?: Record<string, unknown>; isError?: boolean; text?: string } = {}): this {
    this.calls += 1;
    const callId = `call_test_${this.calls}`;
    this.messages.push({ id: this.id(), role: 'assistant', content: '', createdAt: this.n,
      toolCalls: [{ id: callId, name, arguments: JSON.stringify(options.args ?? {}) }] });
    return this.answer(callId, name, data, options);
  }

  answer(callId: string, name: string, data: unknown, options: { isError?: boolean; text?: string } = {}): this {
    const error = (data as { error?: { code: string; message: string } }).error;
    this.messages.push({ id: this.id(), role: 'tool', toolCallId: callId, toolName: name, data,
      isError: options.isError ?? error !== undefined,
      content: options.text ?? (error ? `${error.code}: ${error.message}` : `${name} ok`), createdAt: this.n });
    return this;
  }

  /** Appends the provider's reply as the assistant message. */
  reply(response: CompletionResponse): this {
    this.messages.push({ id: this.id(), role: 'assistant', content: response.message.content,
      toolCalls: response.message.toolCalls, createdAt: this.n });
    return this;
  }
}

export function errorData(code: string, message = code): { error: { code: string; message: string } } {
  return { error: { code, message } };
}

/** A conversation where the autopilot already knows Sol, the map, the belt and the market. */
export function surveyed(): Conversation {
  return new Conversation().user()
    .result('get_map', { ...dashboard({ docked: true }), ...MAP })
    .result('get_system', { ...dashboard({ docked: true }), ...SOL_SYSTEM }, { args: { system_id: 'sol' } })
    .result('get_system', { ...dashboard({ docked: true }), ...WILDS_SYSTEM }, { args: { system_id: 'wilds' } })
    .result('get_poi', { ...dashboard({ docked: true }), ...SOL_BELT }, { args: { poi_id: 'sol_belt' } })
    .result('view_market', { ...dashboard({ docked: true }), ...MARKET });
}
