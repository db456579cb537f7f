// The game connection's public shapes: options, stats and the GameConnection interface (the shared Game plus
// what the CLI and runner need: stats, login before the first turn, events between turns).
import {
  sleep,
  type CallKind,
  type CredentialStore,
  type Game,
  type GameCallOptions,
  type GameEvents,
  type Logger,
  type ToolResult,
} from '../shared/index.js';
import type { AuthApi } from './auth-api.js';
import type { IpHealth, IpPacer } from './ip-pacer.js';
import type { GameProfile } from './profile.js';
import type { GameTarget } from './target.js';

export interface RetryOptions {
  /** Reconnect attempts after a lost session (default 7: about 15 s with the default backoff, a restart's worth). */
  reconnectAttempts?: number;
  /** First backoff between reconnect attempts, doubled each time (default 500 ms, capped at maxBackoffMs). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Rate-limit waits per call (default 3), each capped at maxWaitMs (default 60 s). */
  rateLimitWaits?: number;
  maxWaitMs?: number;
  /** How long one call (or one key login) waits out the game being down — HTTP 503 with Retry-After, e.g. an auth
   * outage — before it ends with an error (default 15 minutes); each wait is capped at maxWaitMs. */
  maxOutageMs?: number;
  /** Automatic re-logins after being displaced by another login, per window (default 3 per 60 s). */
  displacedMax?: number;
  displacedWindowMs?: number;
}

/** Time as the connection sees it: every wait (rate limits, reconnect and re-login backoff) goes through it. */
export interface GameClock {
  now(): number;
  /** Resolves after `ms`; rejects with AbortedError at once when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Real time: the default; tests inject a clock that records waits instead of sleeping. */
export function realClock(): GameClock {
  return { now: () => Date.now(), sleep };
}

export interface ConnectGameOptions {
  target: GameTarget;
  credentials: CredentialStore;
  username?: string;
  /** From SKIPPER_GAME_PASSWORD, with `username`: seeds the store. */
  password?: string;
  /** The player's SpaceMolt API key (SKIPPER_GAME_API_KEY, --api-key): without a password, the connection logs in by
   * key — a fresh single-use token from the game's key API, redeemed with login_token — and logs back in the same
   * way. A secret everywhere; never stored. Needs an HTTP game (its origin serves the key API) or `authApi`. */
  apiKey?: string;
  /** The key API to use instead of the game's own over HTTP (tests; an in-process game). */
  authApi?: AuthApi;
  /** API keys and other strings no tool call may contain. */
  secrets?: string[];
  /** From the player's SpaceMolt dashboard: filled into register calls by code, a secret everywhere else. */
  registrationCode?: string;
  logger?: Logger;
  timeouts?: { queryMs?: number; mutationMs?: number; connectMs?: number };
  /** A call unanswered this long is said once (a `waiting` event); default SLOW_CALL_NOTICE_MS (10 s), 0 = never. */
  slowNoticeMs?: number;
  /** Kind overrides: `"mine": "mutation"` for a tool, `"spacemolt.scan": "query"` for one action. */
  classify?: Record<string, CallKind>;
  retry?: RetryOptions;
  /** Defaults to real time. */
  clock?: GameClock;
  /** The game's tick in ms, when known (minimolt's /health tick_ms); default 10,000 (SpaceMolt's). Notifications and
   * repeated identical queries are asked once a tick. */
  tickMs?: number;
  /** The account's query budget: queriesPerWindow (default 300) in any sliding windowMs (default 60,000); 0 queries
   * turns the window off (turbo minimolt). */
  queryBudget?: { queriesPerWindow?: number; windowMs?: number };
  /** The machine's login and refusal budget, one per process, shared by every connection (rule 18). Without one the
   * connection makes its own, which then guards only itself. */
  ipPacer?: IpPacer;
  /** Told of what the game said: initialize, every tools/list, and every answer — Game.call's and the connection's
   * own (logins, notifications) — as it came, before other players' words are labelled (known secrets already
   * redacted). `--capture` writes them; the listener redacts the rest. */
  record?: (exchange: GameExchange) => void;
}

/** One exchange with the game, as it came (the listener redacts). `own`: a call the connection made itself. */
export type GameExchange =
  | {
      type: 'initialize';
      serverInfo: { name?: string; version?: string };
      capabilities: Record<string, unknown>;
      instructions?: string;
    }
  | { type: 'tools-list'; pages: Array<{ tools: unknown[]; nextCursor?: string }> }
  | { type: 'call'; name: string; args: Record<string, unknown>; result: ToolResult; own: boolean };

export interface GameStats {
  refusedSecrets: number;
  reconnects: number;
  rateLimitWaits: number;
  relogins: number;
  /** Waits while the game answered HTTP 503 with Retry-After (an auth outage): never counted as refusals. */
  outageWaits: number;
  /** Waits for room in the account's query window. */
  budgetWaits: number;
  /** Queries answered without asking the game (notifications already asked this tick, a repeated query). */
  answeredLocally: number;
  /** The machine's budgets, shared with every connection using the same IpPacer. */
  ip: IpHealth;
}

export interface GameConnection extends Game {
  stats(): GameStats;
  /** Logs in with stored credentials (given username, else the latest for this game), or with the API key when one
   * was given without a password. True when logged in; a key the game refuses (or that owns no such player) throws
   * FatalError with what to do. */
  loginIfKnown(options?: { signal?: AbortSignal }): Promise<boolean>;
  /** The game's new events (get_notifications, read and checked here), or undefined when there is nothing (or no
   * such tool). They become text only in a turn's input (renderEvents). */
  fetchEvents(options?: { signal?: AbortSignal; max?: number }): Promise<GameEvents | undefined>;
  /** What kind of server this is and how its calls are spelled and read (generic until the tool list is known). */
  profile(): GameProfile;
  /** The kind of one call: a grouped tool's action decides; an unknown tool is a mutation. */
  kindOf(name: string, args: Record<string, unknown>): CallKind;
  /** Adds an entry to the game's captain's log (as this game spells it); undefined when the game has none. */
  writeLog(entry: string, options?: GameCallOptions): Promise<ToolResult | undefined>;
}

export const RECONNECT_NOTICE = '(reconnected to the game and logged in again)';
/** The notice when the session was reopened but there was no login to restore. */
export const RECONNECT_ONLY_NOTICE = '(reconnected to the game)';
/** The notice when a mutation was retried after the connection broke mid-call: the first try may have happened. */
export function uncertainNotice(tool: string): string {
  return `(reconnected to the game and logged in again; the first ${tool} may have gone through before the connection broke)`;
}

export function resolveRetry(retry: RetryOptions = {}): Required<RetryOptions> {
  return {
    reconnectAttempts: retry.reconnectAttempts ?? 7,
    backoffMs: retry.backoffMs ?? 500,
    maxBackoffMs: retry.maxBackoffMs ?? 10_000,
    rateLimitWaits: retry.rateLimitWaits ?? 3,
    maxWaitMs: retry.maxWaitMs ?? 60_000,
    maxOutageMs: retry.maxOutageMs ?? 15 * 60_000,
    displacedMax: retry.displacedMax ?? 3,
    displacedWindowMs: retry.displacedWindowMs ?? 60_000,
  };
}
