// One pass over a stored session's transcript for the figures the store does not keep as rows: tool calls and their
// errors by code, every successful tick-costing action (the game layer's classification of each call), the first
// dashboard (the start of sessions stored without a turn-0 snapshot) and whether the game showed a market (which
// prices net worth). session-figures measures every view's figures from it.
import { errorCodeOf, type Message, type ToolCall, type ToolSpec, argumentsOf } from '../shared/index.js';
import type { Store } from '../store/index.js';
import { storedCallKinds } from './action-kinds.js';
import { stateFromMessage, ticksTaken } from './game-state.js';
import { PriceBook } from './price-book.js';

/** A point the figures run through: a stored snapshot, or the first dashboard of the transcript. */
export interface FigurePoint {
  turn: number;
  tick: number;
  credits: number;
  netWorth: number;
}

export interface ActionSeen {
  /** Position in the transcript. */
  order: number;
  turn: number;
  ticks: number;
}

/** What one pass over the transcript finds. */
export interface TranscriptScan {
  toolCalls: number;
  failedCalls: number;
  errorsByCode: Record<string, number>;
  actionsSeen: ActionSeen[];
  firstState: (FigurePoint & { order: number }) | undefined;
  /** The turn of the first market view with the game's own bids (net worth is priced from them from then on). */
  marketTurns: number[];
}

/** The stores' part the figures read. */
export type FiguresStore = Pick<
  Store,
  'getSession' | 'snapshots' | 'turns' | 'usageTotals' | 'iterateMessages' | 'requests'
>;

/** The session's tool list as its model requests recorded it (the game layer's classification of every call);
 * empty for sessions recorded before the request log. The list is fitted once per session, so its first and last
 * requests hold it; a tool called by name past the list is classified from its result or the catalogue. */
async function recordedTools(store: FiguresStore, sessionId: string): Promise<ToolSpec[]> {
  const byName = new Map<string, ToolSpec>();
  try {
    const requests = await store.requests.list(sessionId);
    for (const request of new Set([requests[0], requests.at(-1)])) {
      if (request) for (const tool of (await store.requests.load(request.id)).tools) byName.set(tool.name, tool);
    }
  } catch {
    // A request log that cannot be read leaves the classification to the results and the catalogue.
  }
  return [...byName.values()];
}

export async function scanTranscript(store: FiguresStore, sessionId: string): Promise<TranscriptScan> {
  const scan: TranscriptScan = {
    toolCalls: 0,
    failedCalls: 0,
    errorsByCode: {},
    actionsSeen: [],
    firstState: undefined,
    marketTurns: [],
  };
  const kindOf = storedCallKinds(await recordedTools(store, sessionId));
  // Priced as the runner priced it while playing: with the market bids seen up to each result.
  const prices = new PriceBook();
  const calls = new Map<string, ToolCall>();
  let order = 0;
  for await (const message of store.iterateMessages(sessionId)) {
    order += 1;
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) calls.set(call.id, call);
    if (message.role !== 'tool') continue;
    const call = message.toolCallId === undefined ? undefined : calls.get(message.toolCallId);
    if (message.toolCallId !== undefined) calls.delete(message.toolCallId);
    countResult(scan, message, { order, call, kindOf, prices });
  }
  return scan;
}

function countResult(
  scan: TranscriptScan,
  message: Message,
  seen: { order: number; call: ToolCall | undefined; kindOf: ReturnType<typeof storedCallKinds>; prices: PriceBook },
): void {
  scan.toolCalls += 1;
  if (message.isError) {
    scan.failedCalls += 1;
    const code = errorCodeOf(message);
    scan.errorsByCode[code] = (scan.errorsByCode[code] ?? 0) + 1;
    return;
  }
  const stored = {
    name: seen.call?.name ?? message.toolName ?? '',
    args: argumentsOf(seen.call?.arguments),
    data: message.data,
  };
  if (stored.name !== '' && seen.kindOf(stored) === 'mutation') {
    scan.actionsSeen.push({ order: seen.order, turn: message.turn ?? 0, ticks: Math.max(1, ticksTaken(message.data)) });
  }
  const sawMarket = seen.prices.seen;
  seen.prices.observe(message);
  if (!sawMarket && seen.prices.seen) scan.marketTurns.push(message.turn ?? 0);
  scan.firstState ??= firstDashboard(message, seen.order, seen.prices);
}

/** The state a tool result shows, when it says both the tick and the credits (a dashboard). */
function firstDashboard(message: Message, order: number, prices: PriceBook): TranscriptScan['firstState'] {
  const state = stateFromMessage(message, prices);
  if (state?.credits === undefined || state.tick === undefined) return undefined;
  return {
    order,
    turn: message.turn ?? 0,
    tick: state.tick,
    credits: state.credits,
    netWorth: state.netWorth ?? state.credits,
  };
}
