// Counterfactual replay: every recorded model request of a session (a decision point) is sent again, byte for byte,
// to another provider — or with another system prompt — and its reply is judged against what the original captain
// did next. The game is never touched (no tool call runs) and the session is never written to: the run and its
// decisions are stored in their own tables. Requests go one at a time, in order: the built-in autopilot learns from
// the messages it is shown, as it did live (counterfactual-steps.ts: what it is handed).
import type { CompletionRequest, Provider } from '../shared/index.js';
import { FatalError, UsageError, emptyUsage, isAbortError, isBuiltinProvider } from '../shared/index.js';
import type {
  CounterfactualDecision,
  CounterfactualRun,
  CounterfactualTotals,
  MessageRange,
  RequestRecord,
  Session,
  Store,
  StoredRequest,
} from '../store/index.js';
import { redactValue } from '../store/index.js';
import { checkCalls, judge } from './counterfactual-compare.js';
import { type Reply, type ReplayStep, replayRequests, replaySteps } from './counterfactual-steps.js';

export interface CounterfactualOptions {
  store: Store;
  session: Session;
  provider: Provider;
  range?: MessageRange;
  /** Another base system prompt to try on the same states. */
  prompt?: string;
  signal?: AbortSignal;
  /** Called once the run exists, before the first request. */
  onStart?: (run: CounterfactualRun, decisionPoints: number) => void | Promise<void>;
  /** Called after each decision is stored (awaited: a slow reader slows the run down). */
  onDecision?: (decision: CounterfactualDecision) => void | Promise<void>;
  /**
   * Every secret the run knows (its model's API key, the game's passwords), applied before a decision is stored, as
   * the session store does for live play: the stored run stays clean whatever shell exports it later (issue 30).
   */
  redact?: (text: string) => string;
}

export interface CounterfactualResult {
  run: CounterfactualRun;
  totals: CounterfactualTotals;
  decisions: CounterfactualDecision[];
  /** Requests without a kept reply (empty replies, errors, turns cut off): not decision points. */
  skipped: number;
  /** Decision points of another captain than a built-in one asked (a planner's model): not its decisions. */
  notAsked: number;
  /** Why the run stopped before the last decision point, when it did. */
  stopped?: string;
}

/** Failed requests in a row after which the run stops: the endpoint is down, or refuses every request. */
export const MAX_FAILURES_IN_A_ROW = 3;

/** The requests of a session that are decision points, with the calls the original captain made after each. */
export async function decisionPoints(
  store: Store,
  session: Session,
  range: MessageRange = {},
): Promise<{
  points: Array<{ request: RequestRecord; original: Reply }>;
  skipped: number;
  /** Every request in the range, decision point or not. */
  requests: RequestRecord[];
}> {
  if ((await store.requests.count(session.id)) === 0) {
    throw new UsageError(
      `session "${session.name}" has no recorded model requests: it was played before Skipper kept them, so its decision ` +
        `points cannot be rebuilt. Replay a newer session, or play on with this one (-s ${session.name}): turns played ` +
        'from now on are recorded.',
    );
  }
  const requests = await store.requests.list(session.id, range);
  if (requests.length === 0) {
    throw new UsageError(
      `session "${session.name}" has no recorded model requests in turns ${range.fromTurn ?? 1}..${range.toTurn ?? 'end'}`,
    );
  }
  const replies = new Map<string, Reply>();
  for await (const message of store.iterateMessages(session.id, range)) {
    if (message.role === 'assistant' && message.turn !== undefined && message.round !== undefined) {
      replies.set(`${message.turn}:${message.round}`, { content: message.content, toolCalls: message.toolCalls ?? [] });
    }
  }
  const points: Array<{ request: RequestRecord; original: Reply }> = [];
  for (const request of requests) {
    const original = request.outcome === 'reply' ? replies.get(`${request.turn}:${request.round}`) : undefined;
    if (original) points.push({ request, original });
  }
  return { points, skipped: requests.length - points.length, requests };
}

export async function runCounterfactual(options: CounterfactualOptions): Promise<CounterfactualResult> {
  const { store, session, provider } = options;
  const range = options.range ?? {};
  const found = await decisionPoints(store, session, range);
  const { steps, notAsked } = replaySteps({ provider, requests: found.requests, points: found.points });
  const judged = steps.filter((step) => step.original !== undefined).length;
  const run = await store.counterfactuals.create({
    sessionId: session.id,
    model: provider.id,
    ...(options.prompt !== undefined ? { prompt: options.prompt } : {}),
    ...(range.fromTurn !== undefined ? { fromTurn: range.fromTurn } : {}),
    ...(range.toTurn !== undefined ? { toTurn: range.toTurn } : {}),
  });
  await options.onStart?.(run, judged);
  if (range.fromTurn !== undefined && range.fromTurn > 1 && isBuiltinProvider(provider))
    await warmUp({ ...options, toTurn: range.fromTurn - 1 });
  const decisions: CounterfactualDecision[] = [];
  // A replay that throws (a fatal error from the endpoint) is stored as failed.
  let ending: ReplayEnding = { status: 'failed' };
  try {
    ending = await replayPoints({ options, runId: run.id, steps, decisions });
  } finally {
    await store.counterfactuals.finish(run.id, ending.status);
  }
  const summary = await store.counterfactuals.get(run.id);
  if (!summary) throw new FatalError('store_read', `counterfactual ${run.name} vanished while it was written`);
  const stopped = ending.stopped;
  const skipped = found.skipped;
  return { run: summary.run, totals: summary.totals, decisions, skipped, notAsked, ...(stopped ? { stopped } : {}) };
}

interface ReplayEnding {
  status: 'done' | 'interrupted' | 'failed';
  /** Why the replay stopped before the last decision point, when it did. */
  stopped?: string;
}

/** The decision points asked again in order, each stored as it is judged, until done, aborted or failing in a row;
 * the steps that are no decision point are shown unjudged on the way. */
async function replayPoints(input: {
  options: CounterfactualOptions;
  runId: CounterfactualRun['id'];
  steps: ReplayStep[];
  decisions: CounterfactualDecision[];
}): Promise<ReplayEnding> {
  const { store, provider, signal } = input.options;
  const requestOf = requestsFor(input.options);
  let failures = 0;
  for (const { request, original } of input.steps) {
    if (signal?.aborted) return { status: 'interrupted' };
    if (!original) {
      await show({ store, requestOf, provider, request, ...(signal ? { signal } : {}) });
      continue;
    }
    const decision = await decide({
      store,
      requestOf,
      provider,
      request,
      original,
      ...(signal ? { signal } : {}),
    });
    if (!decision) return { status: 'interrupted' };
    const redact = input.options.redact;
    await store.counterfactuals.addDecision(
      input.runId,
      redact ? (redactValue(decision, redact) as CounterfactualDecision) : decision,
    );
    input.decisions.push(decision);
    await input.options.onDecision?.(decision);
    failures = decision.verdict === 'failed' ? failures + 1 : 0;
    if (failures >= MAX_FAILURES_IN_A_ROW) {
      const last = decision.problems[0] ?? 'no answer';
      return { status: 'failed', stopped: `${failures} requests in a row failed; the last one: ${last}` };
    }
  }
  return { status: 'done' };
}

/**
 * The built-in captains learn from what they are shown (the map, the markets, where deposits are): before a run that
 * starts mid-session they are shown the earlier decision points too, unjudged, as they were live. They cost nothing;
 * a language model is not warmed up (it reads its whole context every time, and would be paid for it).
 */
async function warmUp(options: CounterfactualOptions & { toTurn: number }): Promise<void> {
  // Nothing recorded before the range (a session resumed after an older Skipper): nothing to show.
  const earlier = await options.store.requests.list(options.session.id, { toTurn: options.toTurn });
  if (earlier.length === 0) return;
  const found = await decisionPoints(options.store, options.session, { toTurn: options.toTurn });
  const { steps } = replaySteps({ provider: options.provider, requests: found.requests, points: found.points });
  const requestOf = requestsFor(options);
  for (const { request } of steps) {
    if (options.signal?.aborted) return;
    await show({
      store: options.store,
      requestOf,
      provider: options.provider,
      request,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }
}

function requestsFor(options: CounterfactualOptions): (stored: StoredRequest) => Promise<CompletionRequest> {
  return replayRequests({
    store: options.store,
    sessionId: options.session.id,
    provider: options.provider,
    ...(options.prompt !== undefined ? { prompt: options.prompt } : {}),
  });
}

/** A request handed to the provider unjudged (what it learns from it is all that counts). */
async function show(input: {
  store: Store;
  requestOf: (stored: StoredRequest) => Promise<CompletionRequest>;
  provider: Provider;
  request: RequestRecord;
  signal?: AbortSignal;
}): Promise<void> {
  const request = await input.requestOf(await input.store.requests.load(input.request.id));
  await input.provider
    .complete({ ...request, ...(input.signal ? { signal: input.signal } : {}) })
    .catch(() => undefined);
}

/** One decision point asked again. Undefined when the run was aborted meanwhile. Fatal errors (a missing key, a
 * refused login to the endpoint) end the run; any other failure is this decision's verdict. */
async function decide(input: {
  store: Store;
  requestOf: (stored: StoredRequest) => Promise<CompletionRequest>;
  provider: Provider;
  request: RequestRecord;
  original: Reply;
  signal?: AbortSignal;
}): Promise<CounterfactualDecision | undefined> {
  const stored = await input.store.requests.load(input.request.id);
  const request = await input.requestOf(stored);
  const base = { requestId: stored.id, turn: stored.turn, round: stored.round, original: input.original };
  const started = performance.now();
  try {
    const response = await input.provider.complete({ ...request, ...(input.signal ? { signal: input.signal } : {}) });
    const latencyMs = performance.now() - started;
    const proposed = { content: response.message.content, toolCalls: response.message.toolCalls };
    const { verdict, problems } = judge(input.original.toolCalls, {
      content: proposed.content,
      calls: checkCalls(proposed.toolCalls, stored.tools),
    });
    return { ...base, verdict, proposed, problems, usage: response.usage, latencyMs };
  } catch (error) {
    if (input.signal?.aborted || isAbortError(error)) return undefined;
    if (error instanceof FatalError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return {
      ...base,
      verdict: 'failed',
      proposed: { content: '', toolCalls: [] },
      problems: [message],
      usage: emptyUsage(),
      latencyMs: performance.now() - started,
    };
  }
}
