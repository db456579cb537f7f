// Loop benchmark: what Skipper itself spends per round of a turn — everything except the provider's and the game's
// own time — in a session of 100, 10k and 100k stored messages, through the shipped path: setUpSession (the
// SessionRunner, history with the real window, captain memory on with its block every turn and an episode per turn,
// the request log) over a real SQLite file in WAL mode (openStore), every message committed before the next round,
// and a watcher serialising every event as the --json one does. The session is resumed from the store the way
// `skipper --resume` does (the recent turns loaded, windowed), with the captain's memory as that many turns left it.
// Also the context sent per round, counted by a real tokenizer (o200k) independent of the chars/4 estimate the context
// builder fits to for this (non-OpenAI) model id: flat from 10k to 100k messages is the target.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTokenCounter, ESTIMATE_COUNTER, type TokenCounter } from '../llm/index.js';
import { createMemory, EPISODES_KEPT } from '../llm/memory/index.js';
import { HISTORY_TURNS_LOADED, HISTORY_WINDOW, setUpSession } from '../session/index.js';
import type { RunnerEvent } from '../session/index.js';
import type { AppendableMessage, Store } from '../store/index.js';
import { createRedactor, openStore, redactValue } from '../store/index.js';
import type { CompletionRequest, CompletionResponse, Game, Provider, ToolResult, ToolSpec } from '../shared/index.js';
import { emptyUsage, silentLogger } from '../shared/index.js';
import { median } from './score.js';
import type { BenchFigure } from './types.js';

const part = 'loop';
/** Rounds per measured turn: a query, an action, a query, an action, then the answer. */
const ROUNDS_PER_TURN = 5;
const TURNS = 12;
const WARMUP_TURNS = 2;
const GAME_LABEL = 'embedded';
const USERNAME = 'bench_loop';

const TOOLS: ToolSpec[] = [
  {
    name: 'get_status',
    description: 'Your ship, cargo and location.',
    inputSchema: { type: 'object', properties: {} },
    readOnly: true,
  },
  {
    name: 'get_system',
    description: 'The system you are in.',
    inputSchema: { type: 'object', properties: { system_id: { type: 'string' } } },
    readOnly: true,
  },
  {
    name: 'mine',
    description: 'Mine the asteroid belt you are at (one tick).',
    inputSchema: { type: 'object', properties: {} },
    readOnly: false,
  },
];

function dashboard(n: number): string {
  return `Nova | Sol Belt | Credits: ${1000 + n} | Fuel: 80/100 | Cargo: ${n % 70}/70 | Hull: 100/100 | Tick ${n}`;
}

/** A stored session's turns: user line, two calls (query + mutation with a dashboard), final answer. */
function syntheticTurns(size: number): AppendableMessage[] {
  const messages: AppendableMessage[] = [];
  for (let turn = 1; messages.length < size; turn += 1) {
    const push = (message: AppendableMessage): void => {
      if (messages.length < size) messages.push({ ...message, turn, createdAt: turn * 1000 });
    };
    push({ role: 'user', content: `autoplay tick ${turn}` });
    push({
      role: 'assistant',
      content: 'Checking the system, then mining.',
      toolCalls: [
        { id: `s${turn}`, name: 'get_system', arguments: '{"system_id":"sol"}' },
        { id: `m${turn}`, name: 'mine', arguments: '{}' },
      ],
    });
    push({
      role: 'tool',
      content: `System Sol: ${'poi '.repeat(400)}`,
      toolCallId: `s${turn}`,
      toolName: 'get_system',
      data: { system: { id: 'sol' } },
    });
    push({
      role: 'tool',
      content: `Mined 4 iron_ore. ${dashboard(turn)}`,
      toolCallId: `m${turn}`,
      toolName: 'mine',
      data: { player: { credits: 1000 + turn }, ship: { fuel: 80 } },
    });
    push({ role: 'assistant', content: `Mined, cargo ${turn % 70}/70 (turn ${turn}).`, toolCalls: [] });
  }
  return messages;
}

/** The session as that many turns left it: the transcript in the store, and the captain's episodes (pruned as in play). */
async function fillStore(store: Store, sessionId: string, size: number): Promise<void> {
  const messages = syntheticTurns(size);
  for (let start = 0; start < messages.length; start += 5000)
    await store.appendMany(sessionId, messages.slice(start, start + 5000));
  const turns = messages.at(-1)?.turn ?? 0;
  const memory = createMemory({ port: store.memory, captain: `${GAME_LABEL}#${USERNAME}`, secrets: () => [] });
  await memory.load();
  for (let turn = Math.max(1, turns - EPISODES_KEPT + 1); turn <= turns; turn += 1) {
    await memory.recordTurn({
      outcome: 'answered',
      goal: 'grow your net worth by mining ore and selling it at stations; stay alive',
      actions: ['mine'],
      errors: turn % 17 === 0 ? [{ tool: 'mine', code: 'cargo_full' }] : [],
      creditsBefore: 1000 + turn - 1,
      creditsAfter: 1000 + turn,
    });
  }
  await memory.settled();
}

interface Timing {
  external: number;
}

function instantProvider(timing: Timing, onRequest: (request: CompletionRequest) => void): Provider {
  let call = 0;
  return {
    id: 'bench/instant',
    async complete(request: CompletionRequest): Promise<CompletionResponse> {
      const started = performance.now();
      call += 1;
      onRequest(request);
      const last = call % ROUNDS_PER_TURN === 0;
      const response: CompletionResponse = {
        message: last
          ? { content: 'Done for this tick.', toolCalls: [] }
          : {
              content: '',
              toolCalls: [{ id: `b${call}`, name: call % 2 ? 'get_status' : 'mine', arguments: JSON.stringify({}) }],
            },
        usage: emptyUsage(),
        finishReason: last ? 'stop' : 'tool_calls',
        model: 'instant',
      };
      timing.external += performance.now() - started;
      return response;
    },
  };
}

function instantGame(timing: Timing): Game {
  let call = 0;
  return {
    label: GAME_LABEL,
    async listTools(): Promise<ToolSpec[]> {
      return TOOLS;
    },
    async call(name: string): Promise<ToolResult> {
      const started = performance.now();
      call += 1;
      const result: ToolResult = {
        text: `${name === 'mine' ? 'Mined 4 iron_ore. ' : ''}${dashboard(call)}`,
        data: { player: { credits: 1000 + call }, ship: { fuel: 80, cargo_used: call % 70 }, tick: call },
        isError: false,
      };
      timing.external += performance.now() - started;
      return result;
    },
    username: () => USERNAME,
    onEvent: () => () => {},
    close: async () => {},
  };
}

/** A --json watcher's work: each event mapped to a small object, redacted value by value, serialised to a line. */
function jsonWatcher(sink: { bytes: number }): (event: RunnerEvent) => void {
  const redact = createRedactor(['a-game-password-never-shown']);
  return (event) => {
    const line: Record<string, unknown> | undefined =
      event.type === 'tool-result'
        ? {
            type: event.type,
            id: event.message.toolCallId,
            tool: event.message.toolName,
            is_error: event.message.isError === true,
            text: event.message.content.slice(0, 2000),
          }
        : event.type === 'tool-call'
          ? {
              type: event.type,
              id: event.call.id,
              tool: event.call.name,
              arguments: event.call.arguments,
              read_only: event.readOnly,
            }
          : event.type === 'assistant-message'
            ? {
                type: 'assistant',
                content: event.message.content,
                tool_calls: (event.message.toolCalls ?? []).map((call) => ({ id: call.id, name: call.name })),
              }
            : event.type === 'message-stored'
              ? {
                  type: 'message',
                  id: event.message.id,
                  role: event.message.role,
                  turn: event.message.turn ?? null,
                  stored: true,
                }
              : event.type === 'turn-end'
                ? {
                    type: event.type,
                    turn: event.summary.turn,
                    outcome: event.summary.outcome,
                    rounds: event.summary.rounds,
                  }
                : event.type === 'turn-start'
                  ? { type: event.type, turn: event.turn, kind: event.input.kind, input: event.input.text }
                  : undefined;
    if (line) sink.bytes += JSON.stringify(redactValue({ ts: new Date().toISOString(), ...line }, redact)).length + 1;
  };
}

export interface LoopMeasure {
  /** Median over turns of Skipper's time per round: (turn wall time − provider and game time) ÷ rounds. */
  perRoundMs: number;
  /** Median of the rounds alone (round-start to round-end, minus provider and game). */
  roundMs: number;
  /** Median context per request as the independent counter counts it (messages + tool schemas). */
  tokens: number;
  /** The same requests by the chars/4 estimate the builder fits to. */
  estimatedTokens: number;
  inMemory: number;
  memoryEntries: number;
}

export async function measureLoop(options: {
  size: number;
  counter: TokenCounter;
  estimate: TokenCounter;
}): Promise<LoopMeasure> {
  const dir = mkdtempSync(join(tmpdir(), 'skipper-bench-loop-'));
  const store = await openStore({ path: join(dir, 'skipper.db') });
  try {
    const session = await store.createSession({
      game: GAME_LABEL,
      model: 'bench/instant',
      username: USERNAME,
      goal: 'mine and sell',
    });
    await fillStore(store, session.id, options.size);
    const timing: Timing = { external: 0 };
    let measuring = false;
    const tokens: number[] = [];
    const estimated: number[] = [];
    const count = (counter: TokenCounter, request: CompletionRequest): number =>
      counter.messages(request.messages) + counter.text(JSON.stringify(request.tools));
    const provider = instantProvider(timing, (request) => {
      if (!measuring) return;
      const started = performance.now();
      tokens.push(count(options.counter, request));
      estimated.push(count(options.estimate, request));
      timing.external += performance.now() - started; // counting is the bench's work, not the loop's
    });
    const game = instantGame(timing);
    const { runner, history, memory } = await setUpSession({
      store,
      session,
      provider,
      game,
      tools: TOOLS,
      gameLabel: GAME_LABEL,
      goal: () => 'grow your net worth by mining ore and selling it at stations; stay alive',
      maxRounds: 20,
      logger: silentLogger,
      memory: true,
      resume: true,
    });
    const sink = { bytes: 0 };
    runner.on(jsonWatcher(sink));
    const rounds: number[] = [];
    let roundStart = 0;
    let externalAtRound = 0;
    runner.on((event) => {
      if (!measuring) return;
      if (event.type === 'round-start') {
        roundStart = performance.now();
        externalAtRound = timing.external;
      } else if (event.type === 'round-end') {
        rounds.push(performance.now() - roundStart - (timing.external - externalAtRound));
      }
    });
    const perRound: number[] = [];
    for (let turn = 0; turn < WARMUP_TURNS + TURNS; turn += 1) {
      measuring = turn >= WARMUP_TURNS;
      const externalBefore = timing.external;
      const started = performance.now();
      const summary = await runner.run({ kind: 'autoplay', text: 'Autoplay: your next move.' });
      const spent = performance.now() - started - (timing.external - externalBefore);
      if (measuring) perRound.push(spent / Math.max(1, summary.rounds));
    }
    await runner.settled();
    await memory?.settled();
    return {
      perRoundMs: median(perRound),
      roundMs: median(rounds),
      tokens: median(tokens),
      estimatedTokens: median(estimated),
      inMemory: history.length,
      memoryEntries: (await store.memory.list(`${GAME_LABEL}#${USERNAME}`)).length,
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface LoopBenchOptions {
  /** The independent counter for the context figures (default: the o200k tokenizer). */
  counter?: TokenCounter;
  sizes?: number[];
}

export async function benchLoop(options: LoopBenchOptions = {}): Promise<BenchFigure[]> {
  const counter = options.counter ?? createTokenCounter('o200k_base');
  const estimate = ESTIMATE_COUNTER;
  const figures: BenchFigure[] = [];
  const results = new Map<number, LoopMeasure>();
  const path =
    `setUpSession resumed from a SQLite file (WAL) holding the session, the runner, captain memory on, a --json-style ` +
    `watcher, history window ${HISTORY_WINDOW} messages (resume loads ${HISTORY_TURNS_LOADED} turns); ` +
    `${ROUNDS_PER_TURN} rounds per turn, ${TURNS} measured turns after ${WARMUP_TURNS} warm-up; provider and game answer at once and their time is subtracted`;
  for (const size of options.sizes ?? [100, 10_000, 100_000]) {
    const result = await measureLoop({ size, counter, estimate });
    results.set(size, result);
    const label = size >= 1000 ? `${size / 1000}k` : String(size);
    const target = size === 10_000 ? 2 : size === 100_000 ? 5 : undefined;
    figures.push({
      part,
      name: `overhead per round, ${label} messages (median)`,
      value: result.perRoundMs,
      unit: 'ms',
      better: 'lower',
      ...(target ? { target } : {}),
      note:
        `turn wall time minus provider and game, ÷ rounds: includes the memory block and the episode write at the turn's ends ` +
        `(memory's writes and marks of use are asynchronous, on this event loop), every message's append awaited ` +
        `(committed to SQLite), the request log, the usage/turn/snapshot rows the turn waits for and the watchers; rounds alone ` +
        `${result.roundMs.toFixed(3)} ms; ${result.inMemory} messages in memory, ${result.memoryEntries} memory entries; ${path}`,
    });
    figures.push({
      part,
      name: `context sent per round, ${label} messages (median)`,
      value: result.tokens,
      unit: 'tokens',
      better: 'lower',
      note: `${counter.encoding} tokenizer count of each request's messages + tool schemas (chars/4 estimate: ${result.estimatedTokens})`,
    });
  }
  const small = results.get(10_000)?.tokens;
  const large = results.get(100_000)?.tokens;
  if (small !== undefined && large !== undefined) {
    figures.push({
      part,
      name: 'context size change 10k → 100k messages',
      value: small === 0 ? 0 : (Math.abs(large - small) / small) * 100,
      unit: '%',
      target: 10,
      better: 'lower',
      note:
        `counted by the ${counter.encoding} tokenizer, independent of the chars/4 estimate the context builder fits its ` +
        `16k-token default budget to for this model id; ${small} → ${large} tokens`,
    });
  }
  return figures;
}
