// builtin/random: the benchmark floor. Each turn it makes 1–3 rounds of one uniformly random tool call each, with
// arguments drawn from the tool's schema (enums, ids seen in earlier results, small integers), then ends the turn.
// It never chats or writes the captain's log (so leak statistics stay meaningful), never logs out, and registers
// only when the game says it is not logged in. Seeded, so runs repeat.
import type { CompletionRequest, CompletionResponse, Message, Provider, ToolSpec } from '../../shared/index.js';
import { throwIfAborted } from '../../shared/index.js';
import { CallIds, currentTurn, reply } from './common.js';
import { errorCode } from './knowledge.js';
import { createRng, randomSeed, type Rng } from './rng.js';

const NEVER: ReadonlySet<string> = new Set(['chat', 'captains_log_add', 'logout', 'login', 'register']);
const ITEMS = ['iron_ore', 'copper_ore', 'nickel_ore', 'titanium_ore', 'platinum_ore', 'water_ice', 'helium_gas'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class RandomProvider implements Provider {
  readonly id = 'builtin/random';
  private readonly rng: Rng;
  private readonly ids: CallIds;
  private readonly username: string;
  private readonly seen = new Set<string>();
  private readonly systems = new Set<string>();
  private readonly pois = new Set<string>();
  private roundsThisTurn = 1;
  private turnKey = '';

  constructor(options: { seed?: number } = {}) {
    const seed = options.seed ?? randomSeed();
    this.rng = createRng(seed);
    this.ids = new CallIds(createRng(seed + 104729));
    this.username = `random_${this.rng.hex(6)}`;
  }

  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    throwIfAborted(request.signal);
    for (const message of request.messages) this.collectIds(message);
    const turn = currentTurn(request.messages);
    const firstUser = request.messages.filter((m) => m.role === 'user').at(-1)?.id ?? '';
    if (firstUser !== this.turnKey) {
      this.turnKey = firstUser;
      this.roundsThisTurn = this.rng.int(1, 3);
    }
    const rounds = turn.filter((m) => m.role === 'assistant').length;
    const lastTool = turn.filter((m) => m.role === 'tool').at(-1);
    const register = request.tools.find((t) => t.name === 'register');
    if (lastTool && errorCode(lastTool) === 'not_authenticated' && register && rounds < 4) {
      return this.calls(request, 'Not logged in: registering.', [
        { name: 'register', args: { username: this.username, empire: 'solarian' } },
      ]);
    }
    const usable = request.tools.filter((t) => !NEVER.has(t.name));
    if (rounds >= this.roundsThisTurn || usable.length === 0) {
      return reply({ request, model: this.id, content: `Random turn done after ${rounds} calls.`, toolCalls: [] });
    }
    const tool = this.rng.pick(usable) as ToolSpec;
    return this.calls(request, `Trying ${tool.name} at random.`, [{ name: tool.name, args: this.argsFor(tool) }]);
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

  /** Arguments drawn from the schema: required ones always, optional ones half the time. */
  argsFor(tool: ToolSpec): Record<string, unknown> {
    const args: Record<string, unknown> = {};
    const required = new Set(tool.inputSchema.required ?? []);
    for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
      if (!required.has(name) && this.rng.next() < 0.5) continue;
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
    const from = key.includes('system') ? [...this.systems] : key.includes('poi') ? [...this.pois]
      : key.includes('item') || key.includes('resource') ? ITEMS : [];
    return this.rng.pick(from.sort()) ?? `x${this.rng.hex(4)}`;
  }

  /** Remembers system and POI ids from results (walks structuredContent, keyed by the field they sit under). */
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
          const field = key === 'id' ? parent : key;
          if (field.includes('system')) this.systems.add(entry);
          else if (field.includes('poi')) this.pois.add(entry);
        } else if (typeof entry === 'object') {
          walk(entry, key === 'connections' ? 'systems' : key);
        }
      }
    };
    walk(message.data, '');
  }
}
