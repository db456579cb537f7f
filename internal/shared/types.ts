// Shared types: the only things every module may import from outside its own folder.
// Our own message shapes; SDK types (openai, MCP) stop at the adapters.

export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** A tool call as the model made it. `arguments` is the raw JSON text, kept even when it does not parse. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** Tool content that is not text, kept by what it is (not its bytes): an image, an audio clip, an embedded resource,
 * a link to one. `bytes` is the size of the data; an image's width×height only when its header says so cheaply. */
export type ContentPart =
  | {
      type: 'image';
      mimeType: string;
      bytes: number;
      width?: number;
      height?: number;
      /** Base64 bytes, kept (up to MAX_MODEL_IMAGE_BYTES decoded) so models that accept images can be shown it. */
      data?: string;
      /** Bytes were dropped because the image is larger than MAX_MODEL_IMAGE_BYTES. */
      tooLarge?: boolean;
    }
  | { type: 'audio'; mimeType: string; bytes: number }
  | { type: 'resource'; uri: string; mimeType?: string; bytes?: number }
  | { type: 'resource_link'; uri: string; name?: string };

/** The largest image (decoded bytes) whose bytes are kept to show a model; larger ones stay a one-line description. */
export const MAX_MODEL_IMAGE_BYTES = 256 * 1024;
/** What one image shown to a model is counted as in token estimates (providers charge ~85–1,600 by size). */
export const MODEL_IMAGE_TOKENS = 800;

/** One line for a part, the same for people and for the model: `[image 32×32 png]`, `[resource file:///… 2.1 KB]`. */
export function describeContentPart(part: ContentPart): string {
  const kind = (mimeType: string | undefined): string => (mimeType ?? '').replace(/^[a-z]+\//i, '').replace(/;.*$/, '');
  switch (part.type) {
    case 'image':
    case 'audio': {
      const size =
        part.type === 'image' && part.width !== undefined && part.height !== undefined
          ? `${part.width}×${part.height}`
          : undefined;
      const tooLarge = part.type === 'image' && part.tooLarge ? ' (too large to show the model)' : '';
      return `[${part.type} ${size ? `${size} ${kind(part.mimeType)}` : `${kind(part.mimeType)} ${formatBytes(part.bytes)}`}${tooLarge}]`;
    }
    case 'resource':
      return `[resource ${part.uri}${part.bytes !== undefined ? ` ${formatBytes(part.bytes)}` : part.mimeType ? ` ${part.mimeType}` : ''}]`;
    case 'resource_link':
      return `[resource_link ${part.uri}${part.name ? ` ${JSON.stringify(part.name)}` : ''}]`;
  }
}

/** 512 B, 2.1 KB, 3.4 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** One message of a conversation, as stored and as handed to providers. */
export interface Message {
  /** Made by code (rule 7). */
  id: string;
  role: Role;
  /** What the model sees. For tool messages: the tool result text. */
  content: string;
  /** Assistant messages always carry a list, empty when the reply was text only (rule 5). */
  toolCalls?: ToolCall[];
  /** Tool messages: the id of the call this answers. */
  toolCallId?: string;
  /** Tool messages: the tool's name (for stubs, display and the autopilot). */
  toolName?: string;
  /** Tool messages: what the game layer read from the result (a GameObservation), never sent to the model as such. */
  data?: unknown;
  /** Tool messages: the call failed (game error, bad arguments, cancelled…). */
  isError?: boolean;
  /** Tool messages: content that is not text (also described, one line each, at the end of `content`). */
  parts?: ContentPart[];
  /** Assistant messages: reasoning kept apart from the answer. */
  reasoning?: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Turn number within the session (1-based), set by the runner. */
  turn?: number;
  /** Round number within the turn (1-based). */
  round?: number;
}

/** A message before it gets its id and timestamp (what providers return). */
export type NewMessage = Omit<Message, 'id' | 'createdAt'>;

export interface JsonSchema {
  type?: string;
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
}

/** What one call costs: a query (read-only, free, parallel-safe), a free action (changes something, spends no
 * tick: chat, log, login) or a mutation (one per tick, may block until it resolves). */
export type CallKind = 'query' | 'free' | 'mutation';

/** A tool the model may call. `readOnly` = the whole tool is a query (parallel-safe). A grouped tool (one tool, an
 * `action` argument) mixes kinds: `actions` tells each action's kind, and `callKind` reads it. */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  readOnly: boolean;
  /** The tool's kind when it is not grouped (default: query when readOnly, else mutation). */
  kind?: CallKind;
  /** Grouped tools: the kind of each value of `action`. */
  actions?: Record<string, CallKind>;
}

/** What a tool call produced. `text` is what the model reads; `data` is what the game layer read from that text
 * (an observation, for a game whose profile reads its text), never the server's structuredContent passed through. */
export interface ToolResult {
  text: string;
  data?: unknown;
  isError: boolean;
  /** Error code when known (`no_fuel`, `invalid_params`, `cancelled`, `timeout`, `refused`…). */
  code?: string;
  /** Content that is not text; `text` ends with one line describing each (the model reads text only). */
  parts?: ContentPart[];
}

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  /** Reasoning tokens when the endpoint reports them (part of completionTokens). */
  reasoningTokens?: number;
  costUsd: number;
  /** false when some call's model has no known price (its cost counted as 0): shown as "price unknown", not $0. */
  priced?: boolean;
}

export const emptyUsage = (): Usage => ({ promptTokens: 0, completionTokens: 0, cachedTokens: 0, costUsd: 0 });

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    cachedTokens: a.cachedTokens + b.cachedTokens,
    reasoningTokens: (a.reasoningTokens ?? 0) + (b.reasoningTokens ?? 0),
    costUsd: a.costUsd + b.costUsd,
    ...(a.priced === false || b.priced === false ? { priced: false } : {}),
  };
}

/** Streamed pieces of a reply, for the UI. */
export type StreamDelta =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool-call'; index: number; id?: string; name?: string; argumentsDelta?: string }
  /** The reply streamed so far is void (it stalled and is being asked for again): drop it; a new one follows. */
  | { type: 'restart' };

export interface CompletionRequest {
  messages: Message[];
  tools: ToolSpec[];
  signal?: AbortSignal;
  onDelta?: (delta: StreamDelta) => void;
  /**
   * Set for a provider that reads only the latest turns (ProviderCapabilities.contextOnDemand): `messages` is then the
   * system message and the stored messages of the last turn and the current one, and this says how to build the whole
   * context a language model would have been sent. The request log keeps it; a counterfactual replay builds it.
   */
  recipe?: ContextRecipe;
  /**
   * A counterfactual replay only: what the stateful captain that made this decision live depended on besides the
   * messages (CompletionResponse.inputs, as stored with the request), for a captain of the same kind to restore it.
   */
  inputs?: DecisionInputs;
}

/**
 * What a stateful captain's decision depended on besides its request (the built-in autopilot: which instance of it
 * decided — a new process starts with nothing learnt — what its fleet told it, the plan it was flying). Kept with the
 * request, so a replay rebuilds the state the decision was made in instead of deriving it again. JSON only.
 */
export interface DecisionInputs {
  /** The captain's instance: a replay starts afresh where it changes, as the live captain did. */
  instance: string;
  /** The rest, the captain's own to read. */
  given?: Record<string, unknown>;
}

/**
 * How to build, later and from the stored transcript, the context a round would have sent a language model
 * (rebuildContext): what the context builder was given besides the history and the system message. Ids, numbers and
 * tool names only.
 */
export interface ContextRecipe {
  /** The id of the newest message the history held (null: none yet). */
  through: string | null;
  /** The id of the current turn's first message (null: the turn has none yet; it starts after `through`). */
  start: string | null;
  budgetTokens: number;
  compaction: 0 | 1 | 2;
  /** Skipper's own tools among those offered (memory, the tool listing): their results count as queries. */
  local: string[];
  /** The empty-reply nudge followed the context (the round's second attempt). */
  nudge?: boolean;
  /** The game's status tool, whose text shows the captain's state (BuildContextOptions.statusTool). */
  statusTool?: string;
  /**
   * The id of the first message after the system message that the captain itself was handed (latestTurns), through
   * `through`: what a replay hands a captain of the same kind. Null: none. Absent in requests stored before it was
   * kept (a replay then hands the whole rebuilt context).
   */
  from?: string | null;
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

export interface CompletionResponse {
  /** role 'assistant'; toolCalls always a list. */
  message: { content: string; toolCalls: ToolCall[]; reasoning?: string };
  usage: Usage;
  finishReason: FinishReason;
  /** Model id that answered. */
  model: string;
  /** A stateful captain's: what this decision depended on besides the request (stored with it; see DecisionInputs). */
  inputs?: DecisionInputs;
}

/** A model behind one interface: OpenAI-compatible endpoints, the built-in autopilot, scripted fakes. */
export interface Provider {
  /** e.g. "openai/gpt-4o-mini", "builtin/autopilot". */
  readonly id: string;
  /** Context window in tokens when known. */
  readonly contextWindow?: number;
  /** What kind of captain this is; absent means a language model behind an API. */
  readonly capabilities?: ProviderCapabilities;
  complete(request: CompletionRequest): Promise<CompletionResponse>;
}

/** What the program may rely on about a provider (instead of matching its id). */
export interface ProviderCapabilities {
  /** Skipper's own code, not a language model: no API key, no cost, nothing to summarise at the end. */
  readonly builtin: boolean;
  /** Reads only a game whose face the game domain knows (its profile detected one) and cannot play anything else. */
  readonly needsKnownFace?: boolean;
  /** Flies a plan a model sets (planner mode): the game domain's PlanFlier. */
  readonly fliesPlans?: boolean;
  /**
   * Reads only the latest turns and never edits its request: each round hands it the system message and the stored
   * (frozen) messages of the last turn and the current one, with the recipe of the whole context instead of the
   * context itself (CompletionRequest.recipe). The built-in autopilot keeps what it learnt; building and logging ~60
   * copies a round for it cost a fleet more CPU than its own play.
   */
  readonly contextOnDemand?: boolean;
}

/** True for Skipper's own captains (autopilot, random), false for language models. */
export function isBuiltinProvider(provider: Pick<Provider, 'capabilities'>): boolean {
  return provider.capabilities?.builtin === true;
}

export type ConnectionEvent =
  | { type: 'connecting'; url: string }
  | { type: 'connected'; url: string }
  | { type: 'reconnecting'; attempt: number; reason: string }
  | { type: 'logged-in'; username: string }
  | { type: 'disconnected'; reason: string }
  | { type: 'rate-limited'; waitMs: number }
  /** The game answered HTTP 503 with Retry-After (`auth`: on the auth path — the key exchange or an account call):
   * the call waits that long and is tried again; it is no refusal and no reason to log in differently. */
  | { type: 'unavailable'; waitMs: number; auth: boolean }
  /** Skipper holds a call back to stay inside the game's limits (rule 18): the account's query window is full, the
   * machine's login budget is spent, or the server refused too often in the last minute. */
  | { type: 'paced'; waitMs: number; reason: 'query_budget' | 'login_budget' | 'rejection_backoff' }
  | { type: 'secret-refused'; tool: string }
  /** A call still unanswered after `waitedMs` (said once per call; the call goes on until its own timeout). */
  | { type: 'waiting'; tool: string; waitedMs: number };

export interface GameCallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Ask the game even when the same query was answered this tick (a person asked: `/status`). */
  fresh?: boolean;
}

/** Advice for a lesson learnt from a repeated failure, for the tool that failed: "Avoid …" or "Prefer …". */
export type LessonWording = (tool: string) => string;

/**
 * What a game tells its captain, supplied by the game's detected profile (internal/game/profile.ts) so the loop, the
 * prompt and memory never name a game: the game's paragraph of the system prompt, lesson wordings by error code, and
 * the call that reads the captain's state.
 */
export interface GameGuide {
  /** The game's paragraph of the system prompt ("Game: …"). */
  readonly prompt: string;
  /** Lesson advice per error code; a code missing here gets a generic wording. */
  readonly lessons: Readonly<Record<string, LessonWording>>;
  /** The call that reads the captain's state, when the game has one. */
  readonly status?: { readonly name: string; readonly args: Readonly<Record<string, unknown>> };
}

/** The captain's only way into a game. */
export interface Game {
  /** A label for the game: "embedded", a URL… (for people; the guide, not the label, says what the game is). */
  readonly label: string;
  listTools(): Promise<ToolSpec[]>;
  /** Never throws for game-level failures: they come back as `isError` results. Throws only on abort. */
  call(name: string, args: Record<string, unknown>, options?: GameCallOptions): Promise<ToolResult>;
  /** The player this connection is logged in as, once known. */
  username(): string | undefined;
  /** What the game tells its captain (its profile's prompt, lessons and status call); absent for a bare game. */
  guide?(): GameGuide;
  /** Adds an entry to the game's captain's log, however this game spells it; undefined when it has none. */
  writeLog?(entry: string, options?: GameCallOptions): Promise<ToolResult | undefined>;
  onEvent(listener: (event: ConnectionEvent) => void): () => void;
  close(): Promise<void>;
}

/** Where game passwords are kept (the store's credentials table: SQLite or PostgreSQL; a Map in unit tests). */
export interface CredentialStore {
  get(gameUrl: string, username: string): Promise<{ username: string; password: string } | undefined>;
  /** The most recently used account for a game, if any. */
  latest(gameUrl: string): Promise<{ username: string; password: string } | undefined>;
  /** Durable when it resolves. */
  put(gameUrl: string, username: string, password: string): Promise<void>;
  /** Every stored password as last read, kept in memory (the secret guard reads it on every call); never blocks. */
  passwordList(): readonly string[];
}

// ---- captain memory rows: written by the store, read by the loop's memory (which may not import the store) ----

export type MemoryKind = 'note' | 'episode' | 'lesson' | 'handoff';
export type MemoryOutcome = 'success' | 'failure';

export interface MemoryEntry {
  id: number;
  /** Whose memory: game + username (see the store's captainId()). */
  captain: string;
  kind: MemoryKind;
  text: string;
  tags: string[];
  outcome: MemoryOutcome | null;
  /** Any JSON the writer wants kept with the entry (tool results, ticks…). */
  evidence: unknown;
  uses: number;
  createdAt: number;
  lastUsedAt: number | null;
}

export interface MemoryInput {
  captain: string;
  kind: MemoryKind;
  text: string;
  tags?: string[];
  outcome?: MemoryOutcome | null;
  evidence?: unknown;
  createdAt?: number;
}
