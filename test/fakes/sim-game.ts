// A `Game` over minimolt in-process through the REAL game layer (connectGame on the server's in-memory transport:
// text parsing, per-call classification, registration code, credential capture), plus a tiny loop that drives a
// Provider through turns the way the real agent loop does. For tests of providers against the faces users meet.
import { connectGame, type GameConnection } from '../../internal/game/index.js';
import type { Game, Message, Provider, ToolCall, ToolResult } from '../../internal/shared/index.js';
import { isRecord, callKind } from '../../internal/shared/index.js';
import type { Minimolt } from '../../internal/sim/index.js';
import { memoryCredentials } from './memory-credentials.js';

/** The game connection plus what it stored: the passwords it captured, by username. */
export type SimGame = GameConnection & { passwords: Map<string, string> };

export const SimGame = {
  /** Connects to minimolt's default (v2) face, or the one named. */
  async connect(minimolt: Minimolt, options: { face?: 'v1' | 'v2' } = {}): Promise<SimGame> {
    const credentials = memoryCredentials();
    const passwords = new Map<string, string>();
    const connection = await connectGame({
      target: {
        kind: 'transport',
        label: 'embedded',
        url: 'embedded://minimolt',
        connect: () => minimolt.connect(options.face ? { face: options.face } : {}),
      },
      credentials: {
        ...credentials,
        put: async (gameUrl, username, password) => {
          await credentials.put(gameUrl, username, password);
          passwords.set(username, password);
        },
      },
      registrationCode: minimolt.registrationCode,
    });
    return Object.assign(connection, { passwords });
  },
};

export interface TurnOutcome {
  outcome: 'answered' | 'round_limit' | 'loop_detected' | 'failed';
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
    const older = this.history
      .slice(from, current)
      .map((m) =>
        m.role === 'tool' ? { ...m, content: `[${m.toolName ?? 'tool'} result omitted]`, data: undefined } : m,
      );
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
  const specs = new Map(tools.map((tool) => [tool.name, tool]));
  // Unreadable arguments run alone.
  const isQuery = (name: string, rawArguments: string): boolean =>
    callKind(specs.get(name), parseArguments(rawArguments) ?? {}) === 'query';
  session.push({ role: 'user', content: options.prompt });
  const seen = new Map<string, number>();
  let failures = 0;
  const maxRounds = options.maxRounds ?? 20;
  for (let round = 1; round <= maxRounds; round += 1) {
    const response = await provider.complete({ messages: session.context(), tools });
    session.push({ role: 'assistant', content: response.message.content, toolCalls: response.message.toolCalls });
    if (response.message.toolCalls.length === 0)
      return { outcome: 'answered', rounds: round, answer: response.message.content };
    const calls = response.message.toolCalls;
    const results = await runCalls(game, calls, isQuery);
    for (const [k, call] of calls.entries()) {
      const result = results[k] as ToolResult;
      session.push({
        role: 'tool',
        content: result.text,
        toolCallId: call.id,
        toolName: call.name,
        ...(result.data !== undefined ? { data: result.data } : {}),
        isError: result.isError,
      });
      // As the real loop guard: a successful action answered with the same words (`Mined 7 X.`) is not a repeat.
      const succeededAction = !result.isError && !isQuery(call.name, call.arguments);
      const key = `${call.name} ${call.arguments} => ${result.text}`;
      if (!succeededAction) seen.set(key, (seen.get(key) ?? 0) + 1);
      if ((seen.get(key) ?? 0) >= 3) return { outcome: 'loop_detected', rounds: round };
      failures = result.isError ? failures + 1 : 0;
      if (failures >= 5) return { outcome: 'failed', rounds: round };
    }
  }
  return { outcome: 'round_limit', rounds: maxRounds };
}

/** Runs one round's calls: each run of queries together, every other call alone and in order. */
async function runCalls(
  game: Game,
  calls: ToolCall[],
  isQuery: (name: string, rawArguments: string) => boolean,
): Promise<ToolResult[]> {
  const results: ToolResult[] = new Array(calls.length);
  let i = 0;
  while (i < calls.length) {
    let j = i;
    while (j < calls.length && isQuery(calls[j]?.name ?? '', calls[j]?.arguments ?? '')) j += 1;
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
  return results;
}

/** A call's JSON arguments: an object ({} for any other JSON value), or undefined when they are not JSON. */
function parseArguments(rawArguments: string): Record<string, unknown> | undefined {
  try {
    const args: unknown = JSON.parse(rawArguments || '{}');
    return isRecord(args) ? args : {};
  } catch {
    return undefined;
  }
}

async function runCall(game: Game, name: string, rawArguments: string): Promise<ToolResult> {
  const args = parseArguments(rawArguments);
  if (args === undefined)
    return { text: 'invalid_arguments: arguments are not valid JSON', isError: true, code: 'invalid_arguments' };
  return game.call(name, args);
}
