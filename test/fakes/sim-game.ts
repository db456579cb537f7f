// A `Game` over minimolt in-process (the SDK Client on the server's in-memory transport), plus a tiny loop that
// drives a Provider through turns the way the real agent loop does. For tests and benchmarks of providers; the real
// game layer (internal/game) adds reconnects, the secret guard and credential storage on top of the same mapping.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  ConnectionEvent, Game, GameCallOptions, Message, Provider, ToolResult, ToolSpec,
} from '../../internal/shared/index.js';

const SAVED = '[saved]';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class SimGame implements Game {
  readonly label = 'embedded';
  /** Passwords captured from register results (what the real game layer would store). */
  readonly passwords = new Map<string, string>();
  private readonly client: Client;
  private user: string | undefined;
  private tools: ToolSpec[] | undefined;

  constructor(client: Client) {
    this.client = client;
  }

  static async connect(transport: Transport): Promise<SimGame> {
    const client = new Client({ name: 'sim-game-test', version: '0.0.0' });
    await client.connect(transport);
    return new SimGame(client);
  }

  async listTools(): Promise<ToolSpec[]> {
    if (this.tools) return this.tools;
    const { tools } = await this.client.listTools();
    this.tools = tools.map((tool) => ({
      name: tool.name,
      description: tool.description ?? '',
      inputSchema: tool.inputSchema as ToolSpec['inputSchema'],
      readOnly: tool.annotations?.readOnlyHint === true,
    }));
    return this.tools;
  }

  async call(name: string, args: Record<string, unknown>, options: GameCallOptions = {}): Promise<ToolResult> {
    const username = typeof args.username === 'string' ? args.username : this.user;
    const callArgs = { ...args };
    if (name === 'login' && username && (callArgs.password === SAVED || !callArgs.password)) {
      callArgs.password = this.passwords.get(username) ?? '';
    }
    let raw: { content?: unknown; structuredContent?: unknown; isError?: unknown };
    try {
      raw = (await this.client.callTool({ name, arguments: callArgs }, undefined, {
        ...(options.signal ? { signal: options.signal } : {}),
      })) as typeof raw;
    } catch (error) {
      if (options.signal?.aborted) throw error;
      return { text: `error: ${(error as Error).message}`, isError: true, code: 'mcp_error' };
    }
    const parts = Array.isArray(raw.content) ? (raw.content as Array<{ type?: string; text?: string }>) : [];
    let text = parts.find((p) => p.type === 'text')?.text ?? '';
    let data = raw.structuredContent;
    const isError = raw.isError === true;
    const error = isRecord(data) && isRecord(data.error) ? data.error : undefined;
    if (name === 'register' && !isError && isRecord(data) && isRecord(data.details)) {
      const password = data.details.password;
      if (typeof password === 'string' && username) {
        this.passwords.set(username, password);
        text = text.split(password).join(SAVED);
        data = { ...data, details: { ...data.details, password: SAVED } };
      }
    }
    if (!isError && (name === 'register' || name === 'login') && username) this.user = username;
    const result: ToolResult = { text, isError };
    if (data !== undefined) result.data = data;
    if (error && typeof error.code === 'string') result.code = error.code;
    return result;
  }

  username(): string | undefined {
    return this.user;
  }

  onEvent(_listener: (event: ConnectionEvent) => void): () => void {
    return () => {};
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

export interface TurnOutcome {
  outcome: 'answered' | 'round-limit' | 'loop-detected' | 'failed';
  rounds: number;
  /** The final text answer, when answered. */
  answer?: string;
}

/**
 * The conversation a test loop keeps, and the context it shows the provider: the system prompt, the last few turns
 * with their tool results stubbed (no `data`, like the real context builder), and the current turn whole.
 */
export class TestSession {
  readonly history: Message[] = [];
  private next = 0;
  private turnStarts: number[] = [];

  constructor(systemPrompt = 'You are the captain of a ship in minimolt. Play well.') {
    this.push({ role: 'system', content: systemPrompt });
  }

  push(message: Omit<Message, 'id' | 'createdAt'>): Message {
    this.next += 1;
    const full: Message = { ...message, id: `msg_${this.next}`, createdAt: this.next };
    if (message.role === 'user') this.turnStarts.push(this.history.length);
    this.history.push(full);
    return full;
  }

  context(keepTurns = 3): Message[] {
    const current = this.turnStarts.at(-1) ?? 1;
    const from = this.turnStarts.at(-1 - keepTurns) ?? 1;
    const older = this.history.slice(from, current).map((m) =>
      m.role === 'tool' ? { ...m, content: `[${m.toolName ?? 'tool'} result omitted]`, data: undefined } : m);
    return [this.history[0] as Message, ...older, ...this.history.slice(current)];
  }
}

/** One turn: provider → tool calls (queries in parallel, mutations in order) → results, until a text answer. */
export async function playTurn(options: {
  provider: Provider;
  game: Game;
  session: TestSession;
  prompt: string;
  maxRounds?: number;
}): Promise<TurnOutcome> {
  const { provider, game, session } = options;
  const tools = await game.listTools();
  const readOnly = new Set(tools.filter((t) => t.readOnly).map((t) => t.name));
  session.push({ role: 'user', content: options.prompt });
  const seen = new Map<string, number>();
  let failures = 0;
  const maxRounds = options.maxRounds ?? 20;
  for (let round = 1; round <= maxRounds; round += 1) {
    const response = await provider.complete({ messages: session.context(), tools });
    session.push({ role: 'assistant', content: response.message.content, toolCalls: response.message.toolCalls });
    if (response.message.toolCalls.length === 0) return { outcome: 'answered', rounds: round, answer: response.message.content };
    const calls = response.message.toolCalls;
    const results: ToolResult[] = new Array(calls.length);
    let i = 0;
    while (i < calls.length) {
      let j = i;
      while (j < calls.length && readOnly.has(calls[j]?.name ?? '')) j += 1;
      if (j > i) {
        const batch = await Promise.all(calls.slice(i, j).map((c) => runCall(game, c.name, c.arguments)));
        batch.forEach((r, k) => (results[i + k] = r));
        i = j;
      } else {
        const call = calls[i];
        if (call) results[i] = await runCall(game, call.name, call.arguments);
        i += 1;
      }
    }
    for (const [k, call] of calls.entries()) {
      const result = results[k] as ToolResult;
      session.push({ role: 'tool', content: result.text, toolCallId: call.id, toolName: call.name,
        ...(result.data !== undefined ? { data: result.data } : {}), isError: result.isError });
      const key = `${call.name} ${call.arguments} => ${result.text}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      if ((seen.get(key) ?? 0) >= 3) return { outcome: 'loop-detected', rounds: round };
      failures = result.isError ? failures + 1 : 0;
      if (failures >= 5) return { outcome: 'failed', rounds: round };
    }
  }
  return { outcome: 'round-limit', rounds: maxRounds };
}

async function runCall(game: Game, name: string, rawArguments: string): Promise<ToolResult> {
  let args: unknown;
  try {
    args = JSON.parse(rawArguments || '{}');
  } catch {
    return { text: 'invalid_arguments: arguments are not valid JSON', isError: true, code: 'invalid_arguments' };
  }
  return game.call(name, isRecord(args) ? args : {});
}
