// `npm run bench -- tokens`: the token diet. The built-in autopilot plays minimolt turbo through the shipped path
// (playCaptain: setUpSession + runAutoplay, captain memory on), behind a measuring provider that sees exactly what a
// model would be sent — every CompletionRequest's messages and tool schemas — and counts them. Figures: prompt tokens
// per game action (target ≤ 4,000, issue 50), tool-schema tokens per request, requests per action, invalid calls, how
// much of each request repeats the previous one's prefix (what a provider-side prompt cache can reuse), and the
// autopilot's gain beside its gain in the same world without the measuring provider (the diet must not change play).
import { createAutopilotProvider } from '../provider/builtin/index.js';
import { toChatRequest } from '../provider/index.js';
import { createTokenCounter, estimateMessageTokens, toolTokens, type TokenCounter } from '../llm/index.js';
import {
  type CompletionRequest,
  type CompletionResponse,
  type Message,
  type Provider,
  type ToolSpec,
  callKind,
} from '../shared/index.js';
import { planFlierOf, type FlightPlan, type PlanFlier } from '../spacemolt/index.js';
import { playCaptain, type CaptainResult } from './captain.js';
import type { BenchFigure } from './types.js';

export interface TokenCounts {
  requests: number;
  promptTokens: number;
  /** The same requests counted by a real tokenizer (o200k_base): messages + the tool list as the wire sends it. */
  tokenizerPromptTokens: number;
  /** tokenizerPromptTokens' share that repeats the previous request's prefix (see prefixTokens). */
  tokenizerPrefixTokens: number;
  schemaTokens: number;
  /** Tokens of each request's leading part that is byte-identical to the previous request's (tools, then messages). */
  prefixTokens: number;
  /** Mutation calls the model asked for whose result (read in a later request) was not an error. */
  actions: number;
  /** Rounds after the first of a turn whose system message and tools were byte-identical to the round before. */
  stablePrefixRounds: number;
  laterRounds: number;
  largestRequest: number;
}

/** Counts actions as the requests show them: a mutation call whose first result was not an error, counted once. */
function actionCounter(): (request: CompletionRequest) => number {
  const mutations = new Set<string>();
  const settled = new Set<string>();
  return (request) => {
    const byName = new Map(request.tools.map((spec: ToolSpec) => [spec.name, spec]));
    let actions = 0;
    for (const message of request.messages) {
      if (message.role === 'assistant') {
        for (const call of message.toolCalls ?? []) {
          const spec = byName.get(call.name);
          if (spec && callKind(spec, parseArguments(call.arguments)) === 'mutation') mutations.add(call.id);
        }
      } else if (
        message.role === 'tool' &&
        message.toolCallId &&
        mutations.has(message.toolCallId) &&
        !settled.has(message.toolCallId)
      ) {
        settled.add(message.toolCallId);
        if (!message.isError) actions += 1;
      }
    }
    return actions;
  };
}

function parseArguments(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {}; // bad JSON is no action
  }
}

/** One request as the prefix comparison sees it: its tools' and messages' JSON text and the turn it belongs to. */
interface RequestShape {
  tools: string;
  messages: string[];
  turnKey: string;
}

/** How many leading messages this request shares with the one before (-1: the tools differ, nothing is shared), and
 * whether a later round of one turn kept the system + tools prefix stable. */
function sharedPrefix(counts: TokenCounts, previous: RequestShape | undefined, current: RequestShape): number {
  if (!previous) return -1;
  if (previous.turnKey === current.turnKey) {
    counts.laterRounds += 1;
    if (previous.tools === current.tools && previous.messages[0] === current.messages[0])
      counts.stablePrefixRounds += 1;
  }
  if (previous.tools !== current.tools) return -1;
  let shared = 0;
  while (shared < current.messages.length && current.messages[shared] === previous.messages[shared]) shared += 1;
  return shared;
}

function sumTo(values: readonly number[], end: number): number {
  let total = 0;
  for (let index = 0; index < end; index += 1) total += values[index] ?? 0;
  return total;
}

/** Wraps a provider: counts what each request carries, then asks the wrapped one. */
export function measuringProvider(inner: Provider, counts: TokenCounts, tokenizer?: TokenCounter): Provider {
  const countActions = actionCounter();
  let previous: RequestShape | undefined;
  const measure = (request: CompletionRequest): void => {
    const tools = JSON.stringify(request.tools);
    const messages = request.messages.map((message) => JSON.stringify(message));
    const schema = toolTokens(request.tools);
    const perMessage = request.messages.map(estimateMessageTokens);
    const total = schema + sumTo(perMessage, perMessage.length);
    counts.requests += 1;
    counts.schemaTokens += schema;
    counts.promptTokens += total;
    counts.largestRequest = Math.max(counts.largestRequest, total);
    const turnKey = request.messages.filter((message: Message) => message.role === 'user').at(-1)?.id ?? '';
    const current = { tools, messages, turnKey };
    const shared = sharedPrefix(counts, previous, current);
    if (shared >= 0) counts.prefixTokens += schema + sumTo(perMessage, shared);
    if (tokenizer) {
      // The tools as an OpenAI-compatible request carries them ({type, function: {name, description, parameters}}):
      // the ToolSpec's own bookkeeping (readOnly, kind, the catalogue of actions) never reaches a model.
      const wireSchema = tokenizer.text(JSON.stringify(toChatRequest([], request.tools, '').tools ?? []));
      const wireMessages = request.messages.map((message) => tokenizer.message(message));
      counts.tokenizerPromptTokens += wireSchema + sumTo(wireMessages, wireMessages.length);
      if (shared >= 0) counts.tokenizerPrefixTokens += wireSchema + sumTo(wireMessages, shared);
    }
    previous = current;
    counts.actions += countActions(request);
  };
  const wrapped: Provider = {
    id: inner.id,
    ...(inner.contextWindow !== undefined ? { contextWindow: inner.contextWindow } : {}),
    // What a model would be sent is the whole context: a captain that reads only the latest turns (contextOnDemand)
    // is measured as if it were a model, so the turn builds the context for it.
    ...(inner.capabilities ? { capabilities: { ...inner.capabilities, contextOnDemand: false } } : {}),
    complete: (request: CompletionRequest): Promise<CompletionResponse> => {
      measure(request);
      return inner.complete(request);
    },
  };
  // Planner mode hands the plan to the provider it was given: the measured autopilot must still receive it.
  const flier = planFlierOf(inner);
  if (!flier) return wrapped;
  const flying: Provider & PlanFlier = {
    ...wrapped,
    setFlightPlan: (plan: FlightPlan | undefined) => flier.setFlightPlan(plan),
  };
  return flying;
}

export function emptyCounts(): TokenCounts {
  return {
    requests: 0,
    promptTokens: 0,
    tokenizerPromptTokens: 0,
    tokenizerPrefixTokens: 0,
    schemaTokens: 0,
    prefixTokens: 0,
    actions: 0,
    stablePrefixRounds: 0,
    laterRounds: 0,
    largestRequest: 0,
  };
}

export interface TokensBenchOptions {
  ticks?: number;
  seed?: number;
}

export async function measureTokens(
  options: TokensBenchOptions = {},
): Promise<{ counts: TokenCounts; result: CaptainResult; unmeasured: CaptainResult }> {
  const seed = options.seed ?? 42;
  const ticks = options.ticks ?? 1000;
  const counts = emptyCounts();
  const provider = measuringProvider(createAutopilotProvider({ seed }), counts, createTokenCounter('o200k_base'));
  const result = await playCaptain({ provider, scenario: 'grind', seed, ticks, memory: true });
  // The same world played by the autopilot as shipped (it reads only the latest turns): the play the diet must keep.
  const unmeasured = await playCaptain({
    provider: createAutopilotProvider({ seed }),
    scenario: 'grind',
    seed,
    ticks,
    memory: true,
  });
  return { counts, result, unmeasured };
}

export async function benchTokens(options: TokensBenchOptions = {}): Promise<BenchFigure[]> {
  const { counts, result, unmeasured } = await measureTokens(options);
  return [...costFigures(counts, result), ...playFigures(counts, result, unmeasured)];
}

/** What the requests cost: tokens per action on both counts, schemas, requests per action. */
function costFigures(counts: TokenCounts, result: CaptainResult): BenchFigure[] {
  const perAction = counts.actions > 0 ? counts.promptTokens / counts.actions : counts.promptTokens;
  const perRequest = counts.requests > 0 ? counts.promptTokens / counts.requests : 0;
  const how =
    `builtin autopilot behind a measuring provider, minimolt turbo grind, seed ${result.seed}, ${result.ticks} ticks, ` +
    `${result.turns} turns, captain memory on, default 16k context; tokens = chars/4 estimate of each request's messages ` +
    `(estimateMessageTokens: content, tool calls, call ids, +4 per message) plus its tool schemas (toolTokens: name, ` +
    `description, inputSchema), summed over ${counts.requests} requests`;
  return [
    {
      part: 'tokens',
      name: 'prompt tokens per game action',
      value: perAction,
      unit: 'tokens',
      better: 'lower',
      note:
        `${how}; a game action = a mutation call whose result was not an error (${counts.actions}); ` +
        `${perRequest.toFixed(0)} tokens per request on average, largest ${counts.largestRequest}`,
    },
    {
      part: 'tokens',
      name: 'prompt tokens per game action (o200k tokenizer)',
      value: counts.actions > 0 ? counts.tokenizerPromptTokens / counts.actions : counts.tokenizerPromptTokens,
      unit: 'tokens',
      target: 4000,
      better: 'lower',
      note:
        'the figure that decides (issue 50): the same requests counted independently by gpt-tokenizer o200k_base: ' +
        'each message (content, tool calls, +4) plus the tool list as an OpenAI-compatible request carries it',
    },
    {
      part: 'tokens',
      name: 'tool-schema tokens per request',
      value: counts.requests > 0 ? counts.schemaTokens / counts.requests : 0,
      unit: 'tokens',
      better: 'lower',
      note: `chars/4; the tool list as offered (the game tools a captain plays with, fitted to a quarter of the context, plus memory tools and game_tools), ${counts.requests} requests`,
    },
    {
      part: 'tokens',
      name: 'requests per game action',
      value: counts.actions > 0 ? counts.requests / counts.actions : counts.requests,
      unit: 'req',
      better: 'lower',
    },
  ];
}

/** Whether the diet kept the play and the cache: invalid calls, the repeated prefix, the gain against plain play. */
function playFigures(counts: TokenCounts, result: CaptainResult, unmeasured: CaptainResult): BenchFigure[] {
  const gain = result.netWorthEnd - result.netWorthStart;
  const plainGain = unmeasured.netWorthEnd - unmeasured.netWorthStart;
  return [
    {
      part: 'tokens',
      name: 'invalid calls',
      value: result.invalidCalls,
      unit: 'calls',
      better: 'lower',
      note: `invalid_params, invalid_payload, invalid_arguments, unknown_tool over ${result.toolCalls} calls; must not rise with the diet`,
    },
    {
      part: 'tokens',
      name: "prompt tokens repeating the previous request's prefix",
      value: counts.promptTokens > 0 ? counts.prefixTokens / counts.promptTokens : 0,
      unit: 'share',
      better: 'higher',
      note: 'chars/4; tools identical, then leading messages byte-identical (JSON) to the previous request: what a prompt cache can reuse',
    },
    {
      part: 'tokens',
      name: "prompt tokens repeating the previous request's prefix (o200k)",
      value: counts.tokenizerPromptTokens > 0 ? counts.tokenizerPrefixTokens / counts.tokenizerPromptTokens : 0,
      unit: 'share',
      target: 0.9,
      better: 'higher',
      note: 'the same prefix comparison counted on o200k_base',
    },
    {
      part: 'tokens',
      name: 'later rounds with an unchanged system + tools prefix',
      value: counts.laterRounds > 0 ? counts.stablePrefixRounds / counts.laterRounds : 1,
      unit: 'share',
      target: 1,
      better: 'higher',
      note: `${counts.stablePrefixRounds} of ${counts.laterRounds} rounds after the first of their turn`,
    },
    {
      part: 'tokens',
      name: 'autopilot net-worth gain (diet check)',
      value: gain,
      unit: 'cr',
      better: 'higher',
      note: `${result.netWorthStart} → ${result.netWorthEnd}, deaths ${result.deaths}, tick utilisation ${((result.tickUtilisation ?? 0) * 100).toFixed(0)}%`,
    },
    {
      part: 'tokens',
      name: 'gain measured ÷ gain without the measuring provider',
      value: plainGain !== 0 ? gain / plainGain : 0,
      unit: 'ratio',
      target: 0.95,
      better: 'higher',
      note:
        `the same world and seed played by the autopilot as shipped: ${unmeasured.netWorthStart} → ` +
        `${unmeasured.netWorthEnd} (${plainGain} cr), ${unmeasured.actions} actions, deaths ${unmeasured.deaths}; ` +
        'same play means within 5 % (above 1.05 is a change of play too)',
    },
  ];
}
