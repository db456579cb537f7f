// builtin/random: the benchmark floor. Each turn it makes 1–3 rounds of one uniformly random call each (a flat tool,
// or a grouped tool plus one of its actions), with arguments drawn from the tool's schema or the op's arguments (enums,
// ids seen in earlier results, small integers), then ends the turn. It never chats or writes the captain's log (so
// leak statistics stay meaningful), never logs in or out, and registers at most once, only when the game says it is
// not logged in. Seeded, so runs repeat.
import type { CompletionRequest, CompletionResponse, Message, Provider, ToolSpec } from '../../shared/index.js';
import type { FaceId, GameOp, OpArgs } from '../../spacemolt/index.js';
import { isRecord, throwIfAborted } from '../../shared/index.js';
import { FACES, createSeededRng, detectFace, randomSeed, toFaceCall, type Rng } from '../../spacemolt/index.js';
import { CallIds, currentTurn, reply } from './common.js';
import { actionsOf, opOfCall } from './face.js';
import { errorCode } from './observation.js';

const NEVER: ReadonlySet<string> = new Set(['chat', 'captains_log_add', 'logout', 'login', 'register']);
const ITEMS = ['iron_ore', 'copper_ore', 'nickel_ore', 'titanium_ore', 'platinum_ore', 'water_ice', 'helium_gas'];
/** Skipper's arguments an op cannot do without (the rest are added half the time). */
const REQUIRED: Partial<Record<GameOp, string[]>> = {
  travel: ['target'],
  jump: ['target'],
  find_route: ['target'],
  sell: ['item_id', 'quantity'],
  buy: ['item_id', 'quantity'],
};

interface Candidate {
  tool: ToolSpec;
  action?: string;
}

export class RandomProvider implements Provider {
  readonly id = 'builtin/random';
  readonly capabilities = { builtin: true, needsKnownFace: true } as const;
  private readonly rng: Rng;
  private readonly ids: CallIds;
  private readonly username: string;
  private readonly seen = new Set<string>();
  private readonly systems = new Set<string>();
  private readonly pois = new Set<string>();
  private readonly items = new Set<string>(ITEMS);
  private registered = false;
  private roundsThisTurn = 1;
  private turnKey = '';

  constructor(options: { seed?: number } = {}) {
    const seed = options.seed ?? randomSeed();
    this.rng = createSeededRng(seed);
    this.ids = new CallIds(createSeededRng(seed + 104729));
    this.username = `random_${this.rng.hex(6)}`;
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    throwIfAborted(request.signal);
    for (const message of request.messages) this.collectIds(message);
    const turn = currentTurn(request.messages);
    const lastUser = request.messages.filter((m) => m.role === 'user').at(-1)?.id ?? '';
    if (lastUser !== this.turnKey) {
      this.turnKey = lastUser;
      this.roundsThisTurn = this.rng.int(1, 3);
    }
    const rounds = turn.filter((m) => m.role === 'assistant').length;
    const lastTool = turn.filter((m) => m.role === 'tool').at(-1);
    const face = detectFace(request.tools);
    const register = toFaceCall(face ?? 'v1', 'register', { username: this.username, empire: 'solarian' });
    const offered = register !== undefined && request.tools.some((t) => t.name === register.name);
    // Registration codes and the game's per-IP budget make a second attempt pointless: once per run.
    if (lastTool && errorCode(lastTool) === 'not_authenticated' && offered && !this.registered) {
      this.registered = true;
      return this.calls(request, 'Not logged in: registering.', [register]);
    }
    const usable = candidates(request.tools, face);
    if (rounds >= this.roundsThisTurn || usable.length === 0) {
      return reply({ request, model: this.id, content: `Random turn done after ${rounds} calls.`, toolCalls: [] });
    }
    const pick = this.rng.pick(usable);
    const label = pick.action ? `${pick.tool.name} ${pick.action}` : pick.tool.name;
    return this.calls(request, `Trying ${label} at random.`, [this.callFor(pick, face)]);
  }

  private calls(
    request: CompletionRequest,
    content: string,
    calls: Array<{ name: string; args: Record<string, unknown> }>,
  ): CompletionResponse {
    const ids = this.ids.make(request.messages, calls.length);
    const toolCalls = calls.map((c, i) => ({ id: ids[i] as string, name: c.name, arguments: JSON.stringify(c.args) }));
    return reply({ request, model: this.id, content, toolCalls });
  }

  /** A known op gets its arguments by meaning (a POI to travel to, a system to jump to); anything else by schema. */
  private callFor(pick: Candidate, face: FaceId | undefined): { name: string; args: Record<string, unknown> } {
    const known = face ? opOfCall(pick.tool.name, pick.action ? { action: pick.action } : {}) : undefined;
    const spelled = known && face ? FACES[face][known.op] : undefined;
    if (known && face && spelled) {
      const required = new Set(REQUIRED[known.op] ?? []);
      const args: OpArgs = {};
      for (const ours of Object.keys(spelled.params)) {
        if (ours === 'registration_code' || ours === 'password') continue;
        if (!required.has(ours) && this.rng.next() < 0.5) continue;
        args[ours] = this.opValue(known.op, ours);
      }
      const call = toFaceCall(face, known.op, args);
      if (call) return call;
    }
    const args: Record<string, unknown> = pick.action ? { action: pick.action } : {};
    // A grouped tool's schema mixes every action's parameters: only the ones it requires are filled.
    return { name: pick.tool.name, args: { ...this.argsFor(pick.tool, pick.action !== undefined), ...args } };
  }

  private opValue(op: GameOp, name: string): unknown {
    if (name === 'target') return this.pickFrom(op === 'travel' ? this.pois : this.systems);
    if (name === 'item_id') return this.pickFrom(this.items);
    if (name === 'clear') return this.rng.next() < 0.5;
    if (name === 'index') return this.rng.int(0, 5);
    return this.rng.int(1, 20);
  }

  private pickFrom(values: ReadonlySet<string>): string {
    return values.size > 0 ? this.rng.pick([...values].sort()) : `x${this.rng.hex(4)}`;
  }

  /** Arguments drawn from the schema: required ones always, optional ones half the time (never when `requiredOnly`). */
  argsFor(tool: ToolSpec, requiredOnly = false): Record<string, unknown> {
    const args: Record<string, unknown> = {};
    const required = new Set(tool.inputSchema.required ?? []);
    for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
      if (name === 'action' && requiredOnly) continue;
      if (!required.has(name) && (requiredOnly || this.rng.next() < 0.5)) continue;
      args[name] = this.valueFor(name, isRecord(schema) ? schema : {});
    }
    return args;
  }

  private valueFor(name: string, schema: Record<string, unknown>): unknown {
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return this.rng.pick(schema.enum);
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    if (type === 'integer' || type === 'number') {
      const min = typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : 1;
      const max = typeof schema.maximum === 'number' ? Math.floor(schema.maximum) : Math.max(min, 20);
      return this.rng.int(min, Math.min(max, min + 19));
    }
    if (type === 'boolean') return this.rng.next() < 0.5;
    const key = name.toLowerCase();
    const from = key.includes('system')
      ? this.systems
      : key.includes('poi')
        ? this.pois
        : key.includes('item') || key.includes('resource')
          ? this.items
          : new Set<string>();
    return this.pickFrom(from);
  }

  /** Remembers system, POI and item ids from what the game layer read (keyed by the field they sit under). */
  private collectIds(message: Message): void {
    if (message.role !== 'tool' || this.seen.has(message.id)) return;
    this.seen.add(message.id);
    const walk = (value: unknown, parent: string): void => {
      if (Array.isArray(value)) {
        for (const entry of value) walk(entry, parent);
        return;
      }
      if (!isRecord(value)) return;
      for (const [key, entry] of Object.entries(value)) {
        if (typeof entry === 'string' && (key === 'id' || key.endsWith('_id'))) {
          this.fileId(key === 'id' ? parent : key, entry);
        } else if (typeof entry === 'string' && parent === 'systems' && key === 'connections') {
          for (const id of entry.split(',')) if (id.trim()) this.systems.add(id.trim());
        } else if (typeof entry === 'object') {
          if (key === 'connections') this.fileConnections(entry);
          walk(entry, key === 'connections' ? 'systems' : key);
        }
      }
    };
    walk(message.data, '');
  }

  /** A lane list given as plain ids (`connections: ['sys_a', …]`): each is a system. Object entries are walked. */
  private fileConnections(entry: object | null): void {
    if (!Array.isArray(entry)) return;
    for (const id of entry) if (typeof id === 'string') this.systems.add(id);
  }

  /** Files an id with the systems, POIs or items, by the field it sits under (`system_id`, `pois[].id`, …). */
  private fileId(field: string, id: string): void {
    if (field.includes('system')) this.systems.add(id);
    else if (field.includes('poi')) this.pois.add(id);
    else if (field.includes('item') || field.includes('resource')) this.items.add(id);
  }
}

/** Every (tool, action) the random captain may call: no chat, log, login, logout or register, on either face. */
function candidates(tools: readonly ToolSpec[], face: FaceId | undefined): Candidate[] {
  // The tool that hosts login and register (v2: spacemolt_auth) holds nothing else worth a random call.
  const authTool = face ? FACES[face].login?.tool : undefined;
  const out: Candidate[] = [];
  for (const tool of tools) {
    const actions = actionsOf(tool);
    if (actions === undefined) {
      const op = opOfCall(tool.name, {})?.op;
      if (!NEVER.has(tool.name) && !(op && NEVER.has(op))) out.push({ tool });
      continue;
    }
    if (tool.name === authTool && face === 'v2') continue;
    for (const action of actions) {
      const op = opOfCall(tool.name, { action })?.op;
      if (!NEVER.has(action) && !(op && NEVER.has(op))) out.push({ tool, action });
    }
  }
  return out;
}
