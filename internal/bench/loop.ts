// Loop benchmark: the agent loop's own overhead per round (everything except the provider and game calls) with
// histories of 100, 10k and 100k messages, and the context tokens it sends per round (should stay flat).
import { createHistory, estimateTokens, runTurn } from '../llm/index.js';
import type { CompletionRequest, CompletionResponse, Game, Message, Provider, ToolResult, ToolSpec } from '../shared/index.js';
import { emptyUsage } from '../shared/index.js';
import type { BenchFigure } from './types.js';

const part = 'loop';
const ROUNDS_PER_TURN = 20;
const TURNS = 4;

const TOOLS: ToolSpec[] = [
  { name: 'get_status', description: 'status', inputSchema: { type: 'object' }, readOnly: true },
  { name: 'get_system', description: 'system', inputSchema: { type: 'object' }, readOnly: true },
  { name: 'mine', description: 'mine', inputSchema: { type: 'object' }, readOnly: false },
];

/** A session-like history: turns of user line, two calls (query + mutation with a dashboard), final answer. */
function syntheticHistory(size: number): Message[] {
  const messages: Message[] = [];
  let turn = 0;
  while (messages.length < size) {
    turn += 1;
    const at = messages.length;
    const push = (message: Omit<Message, 'id' | 'createdAt'>): void => {
      if (messages.length < size) messages.push({ ...message, id: `h${messages.length}`, createdAt: at, turn });
    };
    push({ role: 'user', content: `autoplay tick ${turn}` });
    push({ role: 'assistant', content: 'Checking the system, then mining.', toolCalls: [
      { id: `s${turn}`, name: 'get_system', arguments: '{"system_id":"sol"}' },
      { id: `m${turn}`, name: 'mine', arguments: '{}' },
    ] });
    push({ role: 'tool', content: `System Sol: ${'poi '.repeat(400)}`, toolCallId: `s${turn}`, toolName: 'get_system', data: { system: { id: 'sol' } } });
    push({ role: 'tool', content: `Mined 4 iron_ore. Nova | Sol Belt | Credits: ${turn} | Fuel: 80/100 | Cargo: 12/70`, toolCallId: `m${turn}`, toolName: 'mine', data: { player: { credits: turn }, ship: { fuel: 80 } } });
    push({ role: 'assistant', content: `Mined, cargo 12/70 (turn ${turn}).`, toolCalls: [] });
  }
  return messages;
}

interface Timing {
  external: number;
}

function instantProvider(timing: Timing, tokens: number[]): Provider {
  let call = 0;
  return {
    id: 'bench/instant',
    async complete(request: CompletionRequest): Promise<CompletionResponse> {
      const started = performance.now();
      call += 1;
      tokens.push(estimateTokens(request.messages));
      const last = call % ROUNDS_PER_TURN === 0;
      const response: CompletionResponse = {
        message: last
          ? { content: 'Done for this tick.', toolCalls: [] }
          : { content: '', toolCalls: [{ id: `b${call}`, name: call % 2 ? 'get_status' : 'mine', arguments: JSON.stringify({ n: call }) }] },
        usage: emptyUsage(),
        finishReason: last ? 'stop' : 'tool_calls',
        model: 'instant',
      };
      timing.external += performance.now() - started;
      return response;
    },
  };
}

function instantGame(timing: Timing): Pick<Game, 'call'> {
  let call = 0;
  return {
    async call(name: string): Promise<ToolResult> {
      const started = performance.now();
      call += 1;
      const result: ToolResult = {
        text: `${name}: Nova | Sol Belt | Credits: ${call} | Fuel: 80/100 | Cargo: ${call % 70}/70 | Tick ${call}`,
        data: { player: { credits: call }, ship: { fuel: 80 }, tick: call },
        isError: false,
      };
      timing.external += performance.now() - started;
      return result;
    },
  };
}

async function measure(size: number): Promise<{ overheadMs: number; tokens: number }> {
  const history = createHistory({ initial: syntheticHistory(size) });
  const timing: Timing = { external: 0 };
  const tokens: number[] = [];
  const provider = instantProvider(timing, tokens);
  const game = instantGame(timing);
  const overheads: number[] = [];
  let roundStart = 0;
  let externalAtStart = 0;
  for (let turn = 0; turn < TURNS + 1; turn += 1) {
    const warmup = turn === 0;
    await runTurn({
      provider,
      game,
      tools: TOOLS,
      history,
      systemPrompt: 'You are a captain. '.repeat(50),
      input: { kind: 'autoplay', text: 'tick' },
      maxRounds: ROUNDS_PER_TURN,
      onEvent: (event) => {
        if (event.type === 'round-start') {
          roundStart = performance.now();
          externalAtStart = timing.external;
        } else if (event.type === 'round-end' && !warmup) {
          overheads.push(performance.now() - roundStart - (timing.external - externalAtStart));
        }
      },
    });
  }
  return { overheadMs: median(overheads), tokens: median(tokens.slice(ROUNDS_PER_TURN)) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export async function benchLoop(): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  const results = new Map<number, { overheadMs: number; tokens: number }>();
  for (const size of [100, 10_000, 100_000]) {
    const result = await measure(size);
    results.set(size, result);
    const label = size >= 1000 ? `${size / 1000}k` : String(size);
    const target = size === 10_000 ? 2 : size === 100_000 ? 5 : undefined;
    figures.push({ part, name: `overhead per round, ${label} messages (median)`, value: result.overheadMs, unit: 'ms', better: 'lower', ...(target ? { target } : {}) });
    figures.push({ part, name: `context sent per round, ${label} messages (median)`, value: result.tokens, unit: 'tokens', better: 'lower' });
  }
  const small = results.get(10_000)?.tokens ?? 0;
  const large = results.get(100_000)?.tokens ?? 0;
  figures.push({
    part,
    name: 'context size change 10k → 100k messages',
    value: small === 0 ? 0 : (Math.abs(large - small) / small) * 100,
    unit: '%',
    target: 10,
    better: 'lower',
    note: `default 16k-token budget; ${ROUNDS_PER_TURN} rounds per turn, ${TURNS} measured turns per size, instant provider and game`,
  });
  return figures;
}
