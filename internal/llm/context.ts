// Context building (pure): what the model is sent each round. System prompt (+ memory, untrusted-text rule, latest
// game state) → older turns, compressed and walked back only as far as the token budget reaches → the current
// turn whole. Every message sent is a fresh copy (rule 3); stored history is never touched. A provider that reads
// only the latest turns is handed the stored (frozen) messages themselves and a recipe of the context (latestTurns),
// which rebuildContext turns into the context later.
import type { ContextRecipe, Message, ToolSpec } from '../shared/index.js';
import { UsageError, callKind, setField } from '../shared/index.js';
import { readsAsOriginal, resultOp, showsState } from '../game/index.js';
import { UNTRUSTED_RULE } from './prompt.js';
import { stateLine } from './state-line.js';
import { repairForSend } from './transcript.js';
import { ESTIMATE_COUNTER, type TokenCounter } from './token-counter.js';
import { formatCount, truncateHeadTail } from './tokens.js';

export interface BuildContextOptions {
  history: Message[];
  systemPrompt: string;
  memoryBlock?: string;
  budgetTokens: number;
  /** How `budgetTokens` is measured: the model's tokenizer (tokenCounterFor) or, by default, chars/4. */
  tokenCounter?: TokenCounter;
  /** Index in `history` of the current turn's first message. */
  currentTurnStart: number;
  /** 0 normal; 1 and 2 after context-length errors: smaller budget, every older result stubbed. */
  compaction?: 0 | 1 | 2;
  /** Which results are of queries (older ones become stubs); given the message, for grouped tools whose action
   * decides. See queryResults; without it no result counts as a query (older ones are shortened, not stubbed). */
  isQuery?: (toolName: string, message?: Message) => boolean;
  /** Added to the system prompt for this request only (e.g. the last turn's nudge). */
  extraSystem?: string;
  /**
   * Index of the latest game-state result before `currentTurnStart` (-1: none), when the caller knows it: spares a
   * scan of a long history without any state every round. runTurn finds it once per turn.
   */
  latestStateBefore?: number;
  /**
   * Older turns rendered once for the whole turn (see OlderTurns): every round of a turn sends the same older
   * messages, so they are shortened and counted in the first round and only copied afresh in the next ones.
   */
  older?: OlderTurns;
  /** The system message as it was built when the request was made (rebuildContext): used as it is. */
  system?: Message;
  /** The game's status tool (its guide's status call, when a tool of its own): its text shows the captain's state
   * even without a dashboard in `data`. */
  statusTool?: string;
}

/** Said after an empty reply, in that request only (never stored). */
export const EMPTY_REPLY_NUDGE = 'Your last reply was empty. Call a tool, or answer in plain text.';

/** The empty-reply nudge as the request carries it after the context. */
export function emptyReplyNudge(): Message {
  return { id: 'context-nudge', role: 'user', content: EMPTY_REPLY_NUDGE, createdAt: 0 };
}

/** One older turn as sent: its rendered messages (newest first) and their tokens. */
interface OlderUnit {
  messages: readonly Message[];
  tokens: number;
}

/**
 * The older turns of one turn's context, rendered as far back as a round has needed so far. History before the
 * current turn does not change while the turn runs (appends go after it; the window is trimmed only when a turn
 * starts), so what was rendered for round 1 holds for round 7: a new key (another start, compaction level or oldest
 * message) renders afresh. Owned by one turn (TurnRun); never shared between sessions.
 */
export class OlderTurns {
  private key = '';
  private units: OlderUnit[] = [];
  /** The next history index to render, walking back; -1 once the start of history is reached. */
  private next = -1;
  /** The turn after the last unit, as far as it was rendered before it outgrew the room: its tokens so far are a
   * lower bound, so a round with no more room stops there without rendering it again. */
  private overflow: OlderUnit | undefined;

  /** The units (newest first) whose tokens fit in `room`, in order, stopping at the first that does not. */
  fit(input: {
    history: readonly Message[];
    start: number;
    levelIndex: number;
    room: number;
    render: (message: Message) => Message;
    count: (message: Message) => number;
  }): { units: OlderUnit[]; complete: boolean } {
    const { history, start } = input;
    const key = `${input.levelIndex}|${start}|${history[start - 1]?.id ?? ''}|${history[0]?.id ?? ''}`;
    if (key !== this.key) {
      this.key = key;
      this.units = [];
      this.next = start - 1;
      this.overflow = undefined;
    }
    const fitted: OlderUnit[] = [];
    let remaining = input.room;
    let complete = start === 0;
    for (let index = 0; remaining > 0; index += 1) {
      const unit = this.units[index] ?? this.renderUnit(input, remaining);
      if (!unit || unit.tokens > remaining) break;
      fitted.push(unit);
      remaining -= unit.tokens;
      complete = index === this.units.length - 1 && this.next < 0;
    }
    return { units: fitted, complete };
  }

  /** Renders the next older turn back, or as much of it as `room` holds (a turn that does not fit is not kept). */
  private renderUnit(
    input: { history: readonly Message[]; render: (message: Message) => Message; count: (message: Message) => number },
    room: number,
  ): OlderUnit | undefined {
    if (this.overflow && this.overflow.tokens > room) return this.overflow;
    this.overflow = undefined;
    const { history } = input;
    const messages: Message[] = [];
    let tokens = 0;
    for (let index = this.next; index >= 0; index -= 1) {
      const message = history[index] as Message;
      const rendered = input.render(message);
      messages.push(rendered);
      tokens += input.count(rendered);
      // Past the room a turn is not sent this round; it is rendered again only if a later round has more room.
      if (tokens > room) {
        this.overflow = { messages, tokens };
        return this.overflow;
      }
      if (index === 0 || startsTurn(message, history[index - 1] as Message)) {
        const unit = { messages, tokens };
        this.units.push(unit);
        this.next = index - 1;
        return unit;
      }
    }
    return undefined;
  }
}

/**
 * The most tokens older turns take at compaction level 0, however large the budget: past the last turn or two, stale
 * turns tell a model little that the state line, the memory block (its past turns) and the current turn do not. A
 * window filling 0.6 of a 16k budget doubled the prompt per game action; 2,500 tokens (4–8 turns of autoplay) still
 * cost ~2,300 o200k tokens a request, 600 (1–2 turns) ~600 (`npm run bench -- tokens`, issue 50).
 */
const OLDER_TOKENS = 600;

interface Level {
  budgetShare: number;
  /** Tool results of the current turn's latest round. */
  currentChars: number;
  /** Older mutation results; 0 = stub. */
  olderMutationChars: number;
  /** The most tokens older turns take, whatever the budget (see OLDER_TOKENS). */
  olderTokens: number;
}

const LEVELS: readonly Level[] = [
  { budgetShare: 1, currentChars: 8000, olderMutationChars: 300, olderTokens: OLDER_TOKENS },
  { budgetShare: 0.6, currentChars: 4000, olderMutationChars: 0, olderTokens: 150 },
  { budgetShare: 0.35, currentChars: 2000, olderMutationChars: 0, olderTokens: 60 },
];

const OLDER_ERROR_CHARS = 300;
const OLDER_ASSISTANT_CHARS = 2000;
const OLDER_USER_CHARS = 4000;
const EARLIER_ROUND_CHARS = 600;
/** The most of the budget older turns may take. */
const OLDER_SHARE = 0.6;
/**
 * When the level's older-token cap cuts the window, it starts at a turn whose number is a multiple of this: the first older message
 * then stays the same for a few turns in a row instead of sliding every turn (provider prompt caches reuse a prefix
 * only while it is byte-identical).
 */
const OLDER_ANCHOR_TURNS = 3;

/**
 * Which stored results are of queries, as the game layer classified the calls (never by the tool's name): a local
 * tool (memory, the tool listing) only reads; a grouped tool by the op the game layer read from the result, so an
 * old status answer of a grouped tool becomes a stub like any query result; any other tool by its spec's kind. A
 * tool the list does not hold counts as an action: its result is kept, shortened.
 */
export function queryResults(options: {
  tools: ReadonlyMap<string, ToolSpec>;
  local: { has(name: string): boolean };
}): (toolName: string, message?: Message) => boolean {
  return (name, message) => {
    if (options.local.has(name)) return true;
    const spec = options.tools.get(name);
    if (!spec) return false;
    if (spec.actions) {
      const op = resultOp(message?.data);
      return op ? callKind(spec, { action: op }) === 'query' : spec.readOnly;
    }
    return callKind(spec, {}) === 'query';
  };
}

export function buildContext(options: BuildContextOptions): Message[] {
  const { history } = options;
  const level = LEVELS[options.compaction ?? 0] ?? (LEVELS[2] as Level);
  const isQuery = options.isQuery ?? ((): boolean => false);
  const budget = Math.max(0, Math.floor(options.budgetTokens * level.budgetShare));
  const counter = options.tokenCounter ?? ESTIMATE_COUNTER;
  const start = turnStart(options);
  const current = renderCurrentTurn({
    history,
    start,
    level,
    budget,
    counter,
    stateIndex: findLatestState(history, { from: start, statusTool: options.statusTool }),
  });
  const system = options.system ?? turnSystemMessage(options, start);

  // Older turns get at most a fixed share, so the window does not slide while the current turn grows (again for
  // stable prefixes); it shrinks only when the current turn needs the room.
  const room = budget - counter.message(system) - counter.messages(current);
  const share = Math.floor(budget * OLDER_SHARE);
  const cap = level.olderTokens;
  const remaining = Math.min(share, cap, room);
  // Only the fixed cap is anchored: a window cut by the budget or its share already uses all the room it has.
  const anchor = cap < share && cap <= room;
  // Walk back from the newest older message; whole turns only, stopping at the first that does not fit.
  const { units: fitted, complete } = (options.older ?? new OlderTurns()).fit({
    history,
    start,
    levelIndex: LEVELS.indexOf(level),
    room: remaining,
    render: (message) => renderOlder(message, level, isQuery),
    count: (message) => counter.message(message),
  });
  // Each round sends fresh copies (rule 3): a provider that edits its request cannot reach the next round's.
  const units = fitted.map((unit) => unit.messages.map(copyOlder));
  const older = (anchor && !complete ? anchored(units) : units).flat().reverse();
  return repairForSend([system, ...older, ...current]);
}

/** How far back latestTurns reaches when the last turn has no user message (a session played without input). */
const LATEST_TURNS_REACH = 100;

/**
 * For a provider that reads only the latest turns (ProviderCapabilities.contextOnDemand): the system message as
 * buildContext writes it, then the stored messages themselves (frozen) from the last turn's input on; and the recipe
 * that builds the whole context from the transcript later (rebuildContext), for a language model asked the same
 * question in a counterfactual replay.
 */
export function latestTurns(options: BuildContextOptions & { local: Iterable<string> }): {
  messages: Message[];
  recipe: ContextRecipe;
} {
  const { history } = options;
  const start = turnStart(options);
  const system = turnSystemMessage(options, start);
  const reach = Math.max(0, start - LATEST_TURNS_REACH);
  let from = start - 1;
  while (from > reach && history[from]?.role !== 'user') from -= 1;
  const latest = history.slice(Math.max(0, from));
  return {
    messages: [system, ...latest],
    recipe: {
      through: history.at(-1)?.id ?? null,
      start: history[start]?.id ?? null,
      budgetTokens: options.budgetTokens,
      compaction: options.compaction ?? 0,
      local: [...options.local],
      ...(options.statusTool ? { statusTool: options.statusTool } : {}),
      from: latest[0]?.id ?? null,
    },
  };
}

/**
 * The messages latestTurns handed a captain that reads only the latest turns, from the session's transcript: the
 * system message stored with the request, then the transcript from the recipe's `from` through its `through` (and the
 * empty-reply nudge when it followed). Undefined for a recipe stored before `from` was kept. Throws when the
 * transcript lacks a message the recipe names.
 */
export function rebuildLatestTurns(input: {
  transcript: readonly Message[];
  positions?: ReadonlyMap<string, number>;
  system: Message;
  recipe: ContextRecipe;
}): Message[] | undefined {
  const { recipe, transcript } = input;
  if (recipe.from === undefined) return undefined;
  const positions = input.positions ?? transcriptPositions(transcript);
  const at = (id: string): number => {
    const index = positions.get(id);
    if (index === undefined)
      throw new UsageError(
        `the transcript has no message ${id}, which a stored model request was built from; the database is damaged`,
      );
    return index;
  };
  const latest =
    recipe.from === null || recipe.through === null ? [] : transcript.slice(at(recipe.from), at(recipe.through) + 1);
  return [input.system, ...latest, ...(recipe.nudge ? [emptyReplyNudge()] : [])];
}

/**
 * The context a recipe describes, built from the session's transcript (oldest first; at least up to the recipe's
 * newest message) and the system message stored with the request: what buildContext gave for that round, as a
 * language model would have been sent it. Throws when the transcript lacks a message the recipe names.
 */
export function rebuildContext(input: {
  transcript: readonly Message[];
  /** Each message's index in `transcript` by id, when the caller rebuilds many requests of one transcript. */
  positions?: ReadonlyMap<string, number>;
  system: Message;
  recipe: ContextRecipe;
  tools: readonly ToolSpec[];
}): Message[] {
  const { recipe, transcript } = input;
  const positions = input.positions ?? transcriptPositions(transcript);
  const at = (id: string, before: number): number => {
    const index = positions.get(id);
    if (index === undefined || index >= before)
      throw new UsageError(
        `the transcript has no message ${id}, which a stored model request was built from; the database is damaged`,
      );
    return index;
  };
  const end = recipe.through === null ? 0 : at(recipe.through, transcript.length) + 1;
  const history = transcript.slice(0, end);
  const start = recipe.start === null ? history.length : at(recipe.start, end);
  const local = new Set(recipe.local);
  const tools = new Map(input.tools.filter((spec) => !local.has(spec.name)).map((spec) => [spec.name, spec]));
  const context = buildContext({
    history,
    systemPrompt: '',
    system: input.system,
    budgetTokens: recipe.budgetTokens,
    currentTurnStart: start,
    compaction: recipe.compaction,
    isQuery: queryResults({ tools, local }),
    statusTool: recipe.statusTool,
  });
  if (recipe.nudge) context.push(emptyReplyNudge());
  return context;
}

/** Each message's index by id (rebuildContext's `positions`). */
export function transcriptPositions(transcript: readonly Message[]): Map<string, number> {
  return new Map(transcript.map((message, index) => [message.id, index]));
}

/** The committed turns (newest first) from the oldest whose number is a multiple of OLDER_ANCHOR_TURNS on. */
function anchored(units: Message[][]): Message[][] {
  for (let index = units.length - 1; index > 0; index -= 1) {
    const turn = units[index]?.at(-1)?.turn;
    if (turn !== undefined && turn % OLDER_ANCHOR_TURNS === 0) return units.slice(0, index + 1);
  }
  return units;
}

function startsTurn(message: Message, previous: Message): boolean {
  if (message.role === 'user') return true;
  if (message.role === 'tool') return false;
  return message.turn !== undefined && previous.turn !== undefined && message.turn !== previous.turn;
}

/** The current turn's first index, kept inside the history. */
function turnStart(options: BuildContextOptions): number {
  return Math.min(Math.max(0, options.currentTurnStart), options.history.length);
}

/**
 * The system message of every round of a turn. Its state line shows the state as the turn began, so the system prompt
 * stays the same for every round of a turn (stable prefixes keep provider-side prompt caches warm); newer states are
 * in the current turn, whole.
 */
function turnSystemMessage(options: BuildContextOptions, start: number): Message {
  const { history } = options;
  const stateBefore =
    options.latestStateBefore ?? findLatestState(history, { to: start, statusTool: options.statusTool });
  return systemMessage(options, stateBefore >= 0 && stateBefore < start ? history[stateBefore] : undefined);
}

function systemMessage(options: BuildContextOptions, state: Message | undefined): Message {
  const parts = [options.systemPrompt];
  if (!options.systemPrompt.includes('<untrusted>')) parts.push(UNTRUSTED_RULE);
  if (options.memoryBlock) parts.push(options.memoryBlock);
  if (state) parts.push(stateLine(state));
  if (options.extraSystem) parts.push(options.extraSystem);
  return { id: 'context-system', role: 'system', content: parts.join('\n\n'), createdAt: 0 };
}

/** The latest result in [from, to) that shows the player's state: a dashboard in `data`, or the status tool's text. */
export function findLatestState(
  history: Message[],
  range: { from?: number; to?: number; statusTool?: string | undefined } = {},
): number {
  const { from = 0, to = history.length, statusTool } = range;
  for (let index = Math.min(to, history.length) - 1; index >= from; index -= 1) {
    const message = history[index] as Message;
    if (message.role !== 'tool' || message.isError) continue;
    if ((statusTool !== undefined && message.toolName === statusTool) || showsState(message.data)) return index;
  }
  return -1;
}

function renderCurrentTurn(input: {
  history: Message[];
  start: number;
  level: Level;
  budget: number;
  counter: TokenCounter;
  stateIndex: number;
}): Message[] {
  const { history, start, level } = input;
  const current: Message[] = [];
  let lastAssistant = -1;
  for (let index = start; index < history.length; index += 1) {
    const message = history[index] as Message;
    if (message.role === 'assistant') lastAssistant = current.length;
    current.push(copyWhole(message, level.currentChars));
  }
  if (input.counter.messages(current) <= input.budget) return current;
  // A long turn outgrew the budget: shorten, then stub, the results of its earlier rounds (never the latest
  // round, never the latest game state) so the model still sees what it just asked for.
  for (const stub of [false, true]) {
    for (let index = 0; index < lastAssistant; index += 1) {
      const message = current[index] as Message;
      if (message.role !== 'tool' || start + index === input.stateIndex) continue;
      const original = history[start + index] as Message;
      if (stub && !original.isError) current[index] = stubOf(original);
      else {
        const chars = original.isError ? OLDER_ERROR_CHARS : EARLIER_ROUND_CHARS;
        current[index] = { ...message, content: truncateHeadTail(original.content, chars) };
      }
    }
    if (input.counter.messages(current) <= input.budget) break;
  }
  return current;
}

/**
 * Each copy a context hands out carries the object it copies, equal to it field for field (a frozen history message,
 * or an older turn's rendering OlderTurns keeps), in a private field of its class: JSON, spreads and comparisons do not
 * see it, and a spread of a copy (a copy changed after it was made) is a plain object without it. The request log
 * reads a message's JSON once per original instead of comparing every copy with the copies sent before
 * (RequestSerializer); copies changed while copying are plain objects and carry nothing.
 *
 * Why a class: a WeakMap from copy to original cost more than the comparing it saved (an entry for each of ~60 fresh
 * copies a round), and a non-enumerable symbol property added with `Object.defineProperty` cost ~1.1 µs a copy on Node
 * 20 (the copy leaves V8's fast object shapes); copying into this class's instance costs ~0.1 µs.
 */
class ContextCopy {
  readonly #original: Message;

  constructor(original: Message) {
    this.#original = original;
  }

  static originalOf(message: object): Message | undefined {
    return #original in message ? (message as ContextCopy).#original : undefined;
  }
}

/** A copy of `message`, its fields in the same order, tied to it (see ContextCopy). */
function tiedCopy(message: Message): Message {
  return Object.assign(new ContextCopy(message), message) as Message;
}

/** The message a context copy was copied from, when the copy still equals it (see ContextCopy). */
export function originalOf(message: Message): Message | undefined {
  return ContextCopy.originalOf(message);
}

function copyOlder(message: Message): Message {
  const copy = tiedCopy(message);
  if (message.toolCalls) copy.toolCalls = message.toolCalls.map((call) => ({ ...call }));
  return copy;
}

function copyWhole(message: Message, maxChars: number): Message {
  const content = message.role === 'tool' ? truncateHeadTail(message.content, maxChars) : message.content;
  const data = message.data === undefined ? undefined : cloneData(message.data);
  // The clone keeps the data's keys in order: the copy writes the same JSON as the message when whole.
  const whole = content === message.content && (message.data === undefined || data !== undefined);
  const copy: Message = whole ? tiedCopy(message) : { ...message };
  if (message.toolCalls) copy.toolCalls = message.toolCalls.map((call) => ({ ...call }));
  if (message.data !== undefined) copy.data = data;
  if (message.role === 'tool') copy.content = content;
  if (copy.data !== undefined) readsAsOriginal(copy.data, message.data);
  return copy;
}

/** The fields an older turn's rendering of a user or assistant message keeps (see renderOlder). */
const OLDER_FIELDS = new Set(['id', 'role', 'content', 'createdAt', 'turn', 'round', 'toolCalls']);

/** Whether a message's older rendering is the message itself: no field it would drop, nothing to shorten. */
function olderAsIs(message: Message, maxChars: number): boolean {
  if (message.content.length > maxChars) return false;
  for (const key of Object.keys(message)) if (!OLDER_FIELDS.has(key)) return false;
  return true;
}

/** A deep copy of a tool result's data: JSON-shaped values (plain objects, arrays, primitives) copied by hand, keys
 * in order, which costs a fraction of structuredClone's serialise-and-read-back; anything else by structuredClone. */
function cloneData(data: unknown): unknown {
  try {
    return cloneJsonShaped(data);
  } catch {
    return undefined;
  }
}

function cloneJsonShaped(value: unknown): unknown {
  // What structuredClone refuses, refused alike.
  if (typeof value === 'function' || typeof value === 'symbol') throw new TypeError('not cloneable');
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index += 1) {
      if (!(index in value)) return structuredClone(value); // a sparse array: keep its holes as structuredClone does
      copy[index] = cloneJsonShaped(value[index]);
    }
    return copy;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return structuredClone(value);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setField(copy, key, cloneJsonShaped((value as Record<string, unknown>)[key]));
  return copy;
}

function renderOlder(message: Message, level: Level, isQuery: (name: string, message?: Message) => boolean): Message {
  // A short reply or turn input is the same message older: kept as it is stored, it is the same piece in the request
  // log as the one sent while its turn was current (the field order would differ otherwise).
  if (message.role === 'assistant' && olderAsIs(message, OLDER_ASSISTANT_CHARS)) return message;
  if (message.role === 'user' && olderAsIs(message, OLDER_USER_CHARS)) return message;
  const base: Message = { id: message.id, role: message.role, content: message.content, createdAt: message.createdAt };
  if (message.turn !== undefined) base.turn = message.turn;
  if (message.round !== undefined) base.round = message.round;
  switch (message.role) {
    case 'tool': {
      if (message.toolCallId !== undefined) base.toolCallId = message.toolCallId;
      if (message.toolName !== undefined) base.toolName = message.toolName;
      if (message.isError) base.isError = true;
      // Older query results are stale by now: a one-line stub says what was there. Mutation results say what
      // happened, so they keep a short head+tail (or a stub too when compacting harder).
      if (level.olderMutationChars === 0 || isQuery(message.toolName ?? '', message))
        return { ...base, content: stubOf(message).content };
      base.content = olderActionText(message, level.olderMutationChars);
      return base;
    }
    case 'assistant':
      base.toolCalls = (message.toolCalls ?? []).map((call) => ({ ...call }));
      base.content = truncateHeadTail(message.content, OLDER_ASSISTANT_CHARS);
      return base;
    default:
      base.content = truncateHeadTail(message.content, OLDER_USER_CHARS);
      return base;
  }
}

/**
 * An older action's result, shortened: what happened (its first paragraph, head+tail). The state block the game
 * printed after it is stale by now — the state line and the current turn's results say the state — so it goes.
 */
function olderActionText(message: Message, maxChars: number): string {
  const split = message.content.indexOf('\n\n');
  if (message.isError || split <= 0 || !showsState(message.data)) return truncateHeadTail(message.content, maxChars);
  return `${truncateHeadTail(message.content.slice(0, split), maxChars)}\n[state omitted: superseded]`;
}

function stubOf(message: Message): Message {
  const stub: Message = {
    id: message.id,
    role: 'tool',
    content: `[${message.toolName ?? 'tool'} result omitted: ${formatCount(message.content.length)} chars]`,
    createdAt: message.createdAt,
  };
  if (message.toolCallId !== undefined) stub.toolCallId = message.toolCallId;
  if (message.toolName !== undefined) stub.toolName = message.toolName;
  if (message.turn !== undefined) stub.turn = message.turn;
  if (message.round !== undefined) stub.round = message.round;
  return stub;
}
