// One MCP session's game logic: which face it speaks, who is logged in, rate limits, and turning engine answers into
// SpaceMolt-shaped results (text only; structuredContent only when the server was asked for it). Transport-free, so
// in-memory and HTTP sessions share it.
import { randomBytes } from 'node:crypto';
import type { EmpireId, ItemId } from '../spacemolt/index.js';
import type { Action } from './actions.js';
import type { KeyDesk } from './api-keys.js';
import { dashboard } from './dashboard.js';
import type { Engine, Outcome } from './engine.js';
import { kindOf, type Face } from './faces/face.js';
import type { SimOp } from './faces/op-specs.js';
import type { Player } from './player.js';
import {
  findRoute,
  getCargo,
  getMap,
  getNotifications,
  getPoi,
  getSkills,
  getSystem,
  listLog,
  viewMarket,
  type QueryResult,
} from './queries.js';
import type { Drift } from './drift.js';
import type { SlidingWindow } from './rate-limit.js';
import { SimError } from './sim-error.js';
import { jsonAnswer } from './text/json.js';
import { errorResult, helpText, okResult, type ToolCallResult } from './text/results.js';
import { statusText } from './text/status.js';

export type { ToolCallResult } from './text/results.js';

/** What a session needs from the server that runs it. */
export interface SimHost {
  readonly engine: Engine;
  now(): number;
  /** Queues a mutation and resolves when it has resolved at a tick (throws SimError at once when refused). */
  submit(player: Player, action: Action, onTick?: () => void): Promise<Outcome>;
  readonly queryLimiter: SlidingWindow;
  readonly loginLimiter: SlidingWindow;
  /** Logins and registrations per client address (SpaceMolt: 30 a minute). */
  readonly addressLimiter: SlidingWindow;
  /** Registrations alone per client address (ours, default 10 a minute), counted besides addressLimiter. */
  readonly registrationLimiter: SlidingWindow;
  readonly registrationCode: string;
  /** The owner's API key and the login tokens it mints (login_token redeems them). */
  readonly keys: KeyDesk;
  /** Also send structuredContent (dashboard + details, or {error}) for clients that want JSON. */
  readonly structured: boolean;
  /** `--drift`: answers worded as another version of the game would word them (drift.ts). */
  readonly drift: Drift | undefined;
  /** Seconds per tick (0 in turbo), for the waits refusals state. */
  readonly tickSeconds: number;
  /** Makes this login the player's only live one; returns its epoch. */
  claim(player: Player): number;
  epochOf(player: Player): number;
  /** Writes new accounts at once (a password is shown only once). */
  saveNow(): void;
}

const MAX_LOG_BYTES = 30_000;

/** Called each tick while a travel or jump is under way: ticks done, ticks in all. */
export type ProgressListener = (progress: number, total: number, message: string) => void;

export class GameSession {
  private player: Player | null = null;
  private epoch = 0;
  /** The id the last login or register greeting gave (the flat face wants it back on every call). */
  private sessionId: string | undefined;
  constructor(
    private readonly host: SimHost,
    private readonly face: Face,
    private readonly address: string,
  ) {}

  get playerId(): string | null {
    return this.player?.id ?? null;
  }

  /** Throws UnknownToolError for a tool this face does not serve (an MCP protocol error, not a game error). */
  async call(name: string, args: unknown, onProgress?: ProgressListener): Promise<ToolCallResult> {
    let counted: Player | null = this.player;
    try {
      const resolved = this.face.resolve(name, withoutSessionId(args));
      const kind = kindOf(resolved.op);
      const account = resolved.op === 'register' || resolved.op === 'login' || resolved.op === 'login_token';
      const player = account || resolved.op === 'help' ? null : this.requireLogin();
      if (player && this.face.id === 'v1') this.checkSessionId(args);
      counted = player ?? this.player;
      if (account) this.checkAddressRate(resolved.op === 'register');
      // The code is checked before the other arguments, so a missing one says where to get it.
      if (resolved.op === 'register')
        this.checkRegistrationCode(resolved.raw[this.face.field('register', 'registration_code')]);
      const parsed = this.face.parse(resolved);
      if (player && kind === 'query') this.checkQueryRate(player);
      return this.answered(resolved.op, await this.run(resolved.op, parsed, player, onProgress));
    } catch (error) {
      if (!(error instanceof SimError)) throw error;
      counted ??= this.player;
      if (counted) counted.stats.errors[error.code] = (counted.stats.errors[error.code] ?? 0) + 1;
      return this.refused(error);
    }
  }

  /**
   * A successful answer as this face writes it. No status block after an action: the real server answers an action
   * with its own sentence alone (market-capture: `Docked at Market Prime Exchange.`, `Sold 6 Gold Ore for 12cr.`).
   */
  private answered(op: SimOp, result: QueryResult): ToolCallResult {
    const drift = this.host.drift;
    const noBuyers = drift && op === 'sell' ? drift.noBuyersRefusal(result.text) : undefined;
    if (noBuyers) return { content: [{ type: 'text', text: noBuyers }], isError: true };
    const text = this.face.id === 'v1' ? this.json(op, result) : this.worded(op, result);
    const board = this.host.structured && this.player ? dashboard(this.host.engine, this.player) : undefined;
    return okResult(text, this.host.structured ? { ...(board ?? {}), details: result.details } : undefined);
  }

  /** The flat face answers JSON, as the real /mcp does (text/json.ts); drift renames its keys. */
  private json(op: SimOp, result: QueryResult): string {
    const answer = jsonAnswer({
      op,
      text: result.text,
      details: result.details,
      engine: this.host.engine,
      player: this.player,
      sessionId: this.sessionId,
    });
    return JSON.stringify(this.host.drift ? this.host.drift.answer(op, answer, result.details) : answer, null, 2);
  }

  /** The grouped face's text, as this version of the game words it. */
  private worded(op: SimOp, result: QueryResult): string {
    return this.host.drift ? this.host.drift.text(op, result.text, result.details) : result.text;
  }

  /** The flat face wants the greeting's session_id on every call after login (the real /mcp's words). */
  private checkSessionId(args: unknown): void {
    const given = (args as { session_id?: unknown } | undefined)?.session_id;
    if (given === undefined || given === '') {
      throw new SimError(
        'session_required',
        'You must provide a session_id. Get one by calling login() or register() first.',
      );
    }
    if (given !== this.sessionId) {
      throw new SimError(
        'session_invalid',
        'Session not found or expired. Call login() again to get a new session_id.',
      );
    }
  }

  /** A refusal as this server words it: `Error: code: message`, or in words under drift. */
  private refused(error: SimError): ToolCallResult {
    const drift = this.host.drift;
    // Rate limits stay JSON with their wait: the live server words those so in every version seen.
    if (!drift || error.code === 'rate_limited') return errorResult(error, this.host.structured);
    const transit = this.player?.transit;
    const context = transit
      ? {
          transitTo:
            transit.kind === 'jump'
              ? (this.host.engine.world.systems.get(transit.toSystem)?.name ?? transit.toSystem)
              : (this.host.engine.world.pois.get(transit.toPoi)?.name ?? transit.toPoi),
          transitSeconds: Math.max(1, transit.arrivesAt - this.host.engine.tick) * Math.max(1, this.host.tickSeconds),
        }
      : {};
    return { content: [{ type: 'text', text: drift.refusal(error, context) }], isError: true };
  }

  /** The session ended (transport closed): the player is no longer online through it. */
  close(): void {
    if (this.player && this.host.epochOf(this.player) === this.epoch) this.host.engine.setOnline(this.player, false);
    this.player = null;
  }

  private requireLogin(): Player {
    if (!this.player) throw new SimError('not_authenticated', 'log in first: call login (or register a new pilot)');
    if (this.host.epochOf(this.player) !== this.epoch) {
      throw new SimError('session_replaced', 'another session logged in as this pilot: call login again to take over');
    }
    return this.player;
  }

  private limit(limiter: SlidingWindow, key: string, what: string): void {
    const now = this.host.now();
    const wait = limiter.retryAfter(key, now);
    if (wait > 0)
      throw new SimError('rate_limited', `Too many ${what}: try again in ${wait} seconds`, { retry_after: wait });
  }

  private checkQueryRate(player: Player): void {
    this.limit(this.host.queryLimiter, player.id, 'queries (300 per minute)');
    this.host.queryLimiter.record(player.id, this.host.now());
  }

  /** Every login or registration attempt counts against the client's address, successful or not (as on SpaceMolt). */
  private checkAddressRate(registration: boolean): void {
    const { addressLimiter, registrationLimiter } = this.host;
    this.limit(
      addressLimiter,
      this.address,
      `logins or registrations from your address (${addressLimiter.limit} per minute)`,
    );
    if (registration)
      this.limit(
        registrationLimiter,
        this.address,
        `registrations from your address (${registrationLimiter.limit} per minute)`,
      );
    addressLimiter.record(this.address, this.host.now());
    if (registration) registrationLimiter.record(this.address, this.host.now());
  }

  private adopt(player: Player): string {
    if (this.player && this.player !== player) this.close();
    this.player = player;
    this.epoch = this.host.claim(player);
    this.host.engine.setOnline(player, true);
    // A fresh id per login, shown like SpaceMolt's; it is not a credential and never the password.
    this.sessionId = this.host.drift?.sessionId() ?? randomBytes(32).toString('hex');
    return this.sessionId;
  }

  /** The op's answer: accounts and the two writes (chat, captain's log) here, mutations queued, queries read. */
  private async run(
    op: SimOp,
    args: Record<string, unknown>,
    player: Player | null,
    onProgress?: ProgressListener,
  ): Promise<QueryResult> {
    if (kindOf(op) === 'mutation') return this.mutate(player as Player, toAction(op, args), onProgress);
    switch (op) {
      case 'help':
        return { text: helpText(this.face), details: { tools: this.face.tools.map((t) => t.name) } };
      case 'register':
        return this.register(stringArg(args, 'username') as string, stringArg(args, 'empire') as EmpireId);
      case 'login':
        return this.login(stringArg(args, 'username') as string, stringArg(args, 'password') as string);
      case 'login_token':
        return this.greet(this.host.keys.redeem(stringArg(args, 'token') as string));
      case 'logout':
        this.close();
        return { text: 'Logged out. Your ship stays where it is.', details: { logged_out: true } };
      case 'chat':
        return this.chat(player as Player, args);
      case 'captains_log_add':
        return this.addLogEntry(player as Player, args);
      default:
        return answerQuery({ engine: this.host.engine, face: this.face, player: player as Player, op, args });
    }
  }

  private chat(player: Player, args: Record<string, unknown>): QueryResult {
    if (args.target_id !== undefined) {
      throw new SimError(
        'invalid_params',
        `${this.face.field('chat', 'target_id')}: minimolt has no private chat; send to system or local without it`,
      );
    }
    const channel = stringArg(args, 'channel') as 'system' | 'local';
    const delivered = this.host.engine.chat(player, channel, stringArg(args, 'content') as string);
    return { text: `Message sent to ${channel} (${delivered} pilot(s) in range).`, details: { delivered } };
  }

  private addLogEntry(player: Player, args: Record<string, unknown>): QueryResult {
    const entry = stringArg(args, 'content') as string;
    if (Buffer.byteLength(entry, 'utf8') > MAX_LOG_BYTES) {
      throw new SimError(
        'invalid_params',
        `${this.face.field('captains_log_add', 'content')}: at most ${MAX_LOG_BYTES} bytes`,
      );
    }
    const index = this.host.engine.addLogEntry(player, entry);
    // "saved" must be true when it is said: write now, not at the next tick (turbo may never tick again).
    this.host.saveNow();
    return { text: `Log entry #${index} saved.`, details: { index } };
  }

  private checkRegistrationCode(code: unknown): void {
    if (code === this.host.registrationCode) return;
    const what =
      typeof code === 'string' && code.trim() !== '' ? 'wrong registration code' : 'a registration code is required';
    throw new SimError(
      'invalid_registration_code',
      `${what}: minimolt prints its code when it starts (the \`skipper serve\` banner)`,
    );
  }

  private register(username: string, empire: EmpireId): QueryResult {
    const created = this.host.engine.register(username, empire);
    const sessionId = this.adopt(created);
    this.host.saveNow();
    const text = [
      `Welcome to the galaxy, ${created.username} [${created.empire}]!`,
      `Username: ${created.username}`,
      `Password: ${created.password}`,
      `Session ID: ${sessionId}`,
      'Save your password now: it is shown only once and cannot be recovered.',
    ].join('\n');
    return {
      text,
      details: {
        player_id: created.id,
        password: created.password,
        message: 'Save this password: it is shown only once and cannot be recovered.',
      },
    };
  }

  private login(username: string, password: string): QueryResult {
    const key = username.toLowerCase();
    this.limit(this.host.loginLimiter, key, `failed logins for '${username}' (5 per minute)`);
    let player: Player;
    try {
      player = this.host.engine.authenticate(username, password);
    } catch (error) {
      this.host.loginLimiter.record(key, this.host.now());
      throw error;
    }
    return this.greet(player);
  }

  /** A login's answer, by password or by token. */
  private greet(player: Player): QueryResult {
    const sessionId = this.adopt(player);
    // The real greeting's first line (mcp-probe login); its release notes that follow are left out.
    return {
      text: `Welcome back, ${player.username}! Session ID: ${sessionId}`,
      details: { player_id: player.id, message: `Welcome back, ${player.username}.` },
    };
  }

  private async mutate(player: Player, action: Action, onProgress?: ProgressListener): Promise<QueryResult> {
    // Long trips report progress each tick, so clients that asked for it (progressToken) can keep their timeout alive.
    const onTick =
      onProgress &&
      (() => {
        const transit = player.transit;
        if (!transit) return;
        const total = transit.arrivesAt - transit.startedAt;
        const done = total - Math.max(0, transit.arrivesAt - this.host.engine.tick);
        onProgress(done, total, `${transit.kind} to ${transit.toPoi}: ${total - done} tick(s) to go`);
      });
    const outcome = await this.host.submit(player, action, onTick);
    if (!outcome.ok) throw outcome.error;
    return outcome.result;
  }
}

/** The arguments without the session id, which the face checks itself rather than as an op's parameter. */
function withoutSessionId(args: unknown): unknown {
  if (!args || typeof args !== 'object' || !('session_id' in args)) return args;
  const { session_id: _session, ...rest } = args as Record<string, unknown>;
  return rest;
}

function toAction(op: SimOp, args: Record<string, unknown>): Action {
  switch (op) {
    case 'travel':
      return { type: 'travel', targetPoi: args.target as string };
    case 'jump':
      return { type: 'jump', targetSystem: args.target as string };
    case 'mine':
      return { type: 'mine' };
    case 'sell':
    case 'buy':
      return { type: op, itemId: args.item_id as ItemId, quantity: args.quantity as number };
    case 'refuel':
      return { type: 'refuel', quantity: args.quantity as number | undefined };
    case 'undock':
    case 'dock':
    case 'repair':
      return { type: op };
    default:
      throw new Error(`'${op}' is not a mutation`);
  }
}

// Arguments reach run() parsed against the op's schema (face.parse): these read them back typed.
function stringArg(args: Record<string, unknown>, key: string): string | undefined {
  return args[key] as string | undefined;
}

function numberArg(args: Record<string, unknown>, key: string): number | undefined {
  return args[key] as number | undefined;
}

/** The read-only ops: what the world and the player's own records say, nothing changed. */
function answerQuery(query: {
  engine: Engine;
  face: Face;
  player: Player;
  op: SimOp;
  args: Record<string, unknown>;
}): QueryResult {
  const { engine, face, player, op, args } = query;
  switch (op) {
    case 'get_status':
      return { text: statusText(engine, player), details: {} };
    case 'get_system':
      return getSystem(engine, player);
    case 'get_poi':
      return getPoi(engine, player);
    case 'get_map':
      return getMap(engine);
    case 'find_route':
      return findRoute(engine, player, stringArg(args, 'target') as string, face.field(op, 'target'));
    case 'view_market':
      return viewMarket(engine, player, stringArg(args, 'item_id') as ItemId | undefined);
    case 'get_cargo':
      return getCargo(player);
    case 'get_skills':
      return getSkills(player);
    case 'get_notifications':
      return getNotifications(player, {
        limit: numberArg(args, 'limit') ?? 50,
        clear: (args.clear as boolean | undefined) ?? true,
      });
    case 'captains_log_list':
      return listLog(player, numberArg(args, 'index'));
    case 'view_storage':
      return {
        text: 'minimolt keeps no station storage: everything you own is in your hold. See get_cargo.',
        details: { items: [] },
      };
    default:
      throw new Error(`op '${op}' has no handler`);
  }
}
