// One pass over a stored session's transcript for the figures the store does not keep as rows: tool calls and their
// errors by code, every successful tick-costing action (the game layer's classification of each call), the first
// dashboard (the start of sessions stored without a turn-0 snapshot) and whether the game showed a market (which
// prices net worth). session-figures measures every view's figures from it. A TranscriptReader keeps the pass's
// place: read again, it reads only the messages stored since (the bridge reads a live session's figures every few
// seconds; reading its whole transcript each time cost ~10 ms per 500 messages per captain).
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
  'getSession' | 'snapshots' | 'turns' | 'usageTotals' | 'iterateMessages' | 'messageCount' | 'requests'
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
  return await new TranscriptReader(store, sessionId).read();
}

/** What a pass has read so far, to go on from. */
interface ScanPlace {
  scan: TranscriptScan;
  /** The recorded tool list the calls were classified by: another list (a later request) means reading again. */
  toolsKey: string;
  kindOf: ReturnType<typeof storedCallKinds>;
  /** Priced as the runner priced it while playing: with the market bids seen up to each result. */
  prices: PriceBook;
  /** Calls not answered yet. */
  calls: Map<string, ToolCall>;
  /** Messages read (the transcript's position of the last). */
  order: number;
  /** The last turn read, and the ids read in it (messages of that turn may still be arriving). */
  turn: number;
  seenInTurn: Set<string>;
}

/**
 * One session's scan, kept: each `read()` goes on from the turn the last one stopped in. It starts over when the
 * recorded tool list changed (the classification of earlier calls may change with it) or when fewer messages were
 * read than were stored before the read began (one stored out of turn order, or without a turn, which a read by
 * turn does not see): what it returns is always what one pass over the whole transcript finds.
 */
export class TranscriptReader {
  private place: ScanPlace | null = null;

  constructor(
    private readonly store: FiguresStore,
    readonly sessionId: string,
  ) {}

  async read(): Promise<TranscriptScan> {
    const tools = await recordedTools(this.store, this.sessionId);
    const toolsKey = JSON.stringify(tools);
    const stored = await this.store.messageCount(this.sessionId);
    let place = this.place?.toolsKey === toolsKey ? this.place : null;
    if (place) {
      await this.readFrom(place, place.turn);
      if (place.order < stored) place = null;
    }
    if (!place) {
      place = newPlace(toolsKey, storedCallKinds(tools));
      await this.readFrom(place, undefined);
    }
    this.place = place;
    const scan = place.scan;
    return {
      ...scan,
      errorsByCode: { ...scan.errorsByCode },
      actionsSeen: [...scan.actionsSeen],
      marketTurns: [...scan.marketTurns],
    };
  }

  private async readFrom(place: ScanPlace, fromTurn: number | undefined): Promise<void> {
    const range = fromTurn === undefined ? undefined : { fromTurn };
    for await (const message of this.store.iterateMessages(this.sessionId, range)) {
      // Only forward: a message stored after a later turn's is not seen by the next read by turn (the count sees it).
      if (message.turn !== undefined && message.turn > place.turn) {
        place.turn = message.turn;
        place.seenInTurn.clear();
      }
      if (place.seenInTurn.has(message.id)) continue;
      place.seenInTurn.add(message.id);
      place.order += 1;
      if (message.role === 'assistant') for (const call of message.toolCalls ?? []) place.calls.set(call.id, call);
      if (message.role !== 'tool') continue;
      const call = message.toolCallId === undefined ? undefined : place.calls.get(message.toolCallId);
      if (message.toolCallId !== undefined) place.calls.delete(message.toolCallId);
      countResult(place.scan, message, { order: place.order, call, kindOf: place.kindOf, prices: place.prices });
    }
  }
}

function newPlace(toolsKey: string, kindOf: ScanPlace['kindOf']): ScanPlace {
  return {
    scan: { toolCalls: 0, failedCalls: 0, errorsByCode: {}, actionsSeen: [], firstState: undefined, marketTurns: [] },
    toolsKey,
    kindOf,
    prices: new PriceBook(),
    calls: new Map(),
    order: 0,
    turn: -1,
    seenInTurn: new Set(),
  };
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
