// The game connection: one MCP client per game. A call is guarded (secrets), run in one retry loop that carries
// out recovery.ts's decisions (rate-limit and outage waits on the injected clock; reconnect and re-login via
// SessionKeeper), its answer's credentials captured, redacted, and other players' words labelled. It logs in with a
// password, or with an API key (key-login.ts: a fresh login_token per login). Game.call throws only on abort.
import {
  AbortedError,
  FatalError,
  SkipperError,
  UsageError,
  silentLogger,
  throwIfAborted,
  type CallKind,
  type ConnectionEvent,
  type GameCallOptions,
  type GameEvents,
  type GameGuide,
  type Logger,
  type ToolResult,
  type ToolSpec,
} from '../shared/index.js';

import { credentialKeys } from './credential-key.js';
import { Keyring, type Account } from './keyring.js';
import { LoginSpelling } from './login-spelling.js';
import { prepareCall } from './prepare-call.js';
import type { GameProfile } from './profile.js';
import {
  realClock,
  RECONNECT_NOTICE,
  RECONNECT_ONLY_NOTICE,
  resolveRetry,
  uncertainNotice,
  type ConnectGameOptions,
  type GameClock,
  type GameConnection,
  type GameExchange,
  type GameStats,
} from './options.js';
import type { AttemptCall } from './recovery.js';
import { classifyCallError, describeError, errorResult } from './result.js';
import { SessionKeeper } from './session-keeper.js';
import { GameLink } from './link.js';
import { targetLabel, targetUrl } from './target.js';
import { guardUntrusted, notificationArgs, readEvents, SeenEvents } from './untrusted.js';
import { CredentialCapture } from './credential-capture.js';
import { GameLimits } from './limits.js';
import { noticeIfSlow, SLOW_CALL_NOTICE_MS } from './slow-call.js';
import { runAttempts, type Attempted } from './attempt.js';
import { httpAuthApi, keyApiOrigin, type AuthApi } from './auth-api.js';
import { KeyLogin, KeyLoginError } from './key-login.js';
import { PLACEHOLDERS, revealsSecret } from './secrets.js';
import type { GameTarget } from './target.js';

export async function connectGame(options: ConnectGameOptions): Promise<GameConnection> {
  const connection = new McpGameConnection(options);
  await connection.start();
  return connection;
}

class McpGameConnection implements GameConnection {
  readonly label: string;
  private readonly url: string;
  private readonly logger: Logger;
  private readonly keyring: Keyring;
  private readonly retry: ReturnType<typeof resolveRetry>;
  private readonly queryMs: number;
  private readonly mutationMs: number;
  private readonly slowNoticeMs: number;
  private readonly listeners = new Set<(event: ConnectionEvent) => void>();
  private readonly lifetime = new AbortController();
  private readonly counters = { refusedSecrets: 0, rateLimitWaits: 0, relogins: 0, outageWaits: 0 };
  private readonly link: GameLink;
  private readonly seenEvents = new SeenEvents();
  private readonly keeper: SessionKeeper;
  private readonly loginSpelling = new LoginSpelling();
  private readonly capture: CredentialCapture;
  private readonly clock: GameClock;
  private readonly registrationCode: string | undefined;
  private readonly limits: GameLimits;
  /** Logs in by API key; undefined without a key. */
  private readonly keyLogin: KeyLogin | undefined;
  /** A password was given (SKIPPER_GAME_PASSWORD): it beats the key for the first login. */
  private readonly passwordGiven: boolean;
  /** The game's API key: never a password, so a login carrying it in its password field is refused too. */
  private readonly apiKey: string | undefined;
  /** Told of every answer, Game.call's and the connection's own (logins, notifications): `--capture`. */
  private readonly record: ((exchange: GameExchange) => void) | undefined;

  constructor(options: ConnectGameOptions) {
    this.url = targetUrl(options.target);
    this.label = targetLabel(options.target);
    this.logger = (options.logger ?? silentLogger).child({ module: 'game', game: this.label });
    this.registrationCode = options.registrationCode || undefined;
    this.keyring = new Keyring({
      store: options.credentials,
      keys: credentialKeys(options.target),
      ...(options.username ? { username: options.username } : {}),
      secrets: secretsOf(options),
      logger: this.logger,
    });
    if (options.username && options.password) this.keyring.seed(options.username, options.password);
    this.capture = new CredentialCapture({
      keyring: this.keyring,
      spelling: this.loginSpelling,
      logger: this.logger,
      emit: (event) => this.emit(event),
    });
    this.clock = options.clock ?? realClock();
    this.retry = resolveRetry(options.retry);
    this.limits = new GameLimits({
      budget: { ...options.queryBudget, ...(options.tickMs !== undefined ? { tickMs: options.tickMs } : {}) },
      ...(options.ipPacer ? { pacer: options.ipPacer } : {}),
      clock: this.clock,
      logger: this.logger,
      emit: (event) => this.emit(event),
    });
    this.passwordGiven = Boolean(options.username && options.password);
    this.apiKey = options.apiKey || undefined;
    this.keyLogin = this.makeKeyLogin(options);
    this.queryMs = options.timeouts?.queryMs ?? 30_000;
    this.mutationMs = options.timeouts?.mutationMs ?? 600_000;
    this.slowNoticeMs = options.slowNoticeMs ?? SLOW_CALL_NOTICE_MS;
    this.link = new GameLink({
      target: options.target,
      url: this.url,
      logger: this.logger,
      connectMs: options.timeouts?.connectMs ?? Math.min(this.queryMs, 30_000),
      queryMs: this.queryMs,
      retry: this.retry,
      ...(options.classify ? { classify: options.classify } : {}),
      lifetime: this.lifetime.signal,
      clock: this.clock,
      emit: (event) => this.emit(event),
      ...(options.record ? { record: options.record } : {}),
    });
    this.record = options.record;
    this.keeper = new SessionKeeper({
      link: this.link,
      keyring: this.keyring,
      capture: this.capture,
      retry: this.retry,
      clock: this.clock,
      lifetime: this.lifetime.signal,
      logger: this.logger,
      emit: (event) => this.emit(event),
      onRelogin: () => void (this.counters.relogins += 1),
      // A player logged in by key logs back in by key: a fresh token each time (a token is single-use).
      loginOnce: (account) =>
        account.byKey ? this.keyLoginResult(this.lifetime.signal, false) : this.loginOnce(account),
      login: (account) => {
        if (account.byKey) return this.keyLoginResult(this.lifetime.signal, true);
        const call = this.loginCall(account.username, account.password);
        return this.execute(call.name, call.args, {});
      },
    });
  }

  /** The key login for this connection's key: over the game's own key API (its origin), unless one is handed in. */
  private makeKeyLogin(options: ConnectGameOptions): KeyLogin | undefined {
    if (!options.apiKey) return undefined;
    const api = options.authApi ?? httpKeyApi(options.target, options.apiKey, this.clock);
    return new KeyLogin({
      api,
      ...(options.username ? { username: options.username } : {}),
      clock: this.clock,
      maxWaitMs: this.retry.maxWaitMs,
      maxOutageMs: this.retry.maxOutageMs,
      logger: this.logger,
      emit: (event) => this.emit(event),
      counters: this.counters,
    });
  }

  async start(): Promise<void> {
    this.emit({ type: 'connecting', url: this.url });
    await this.link.open();
    await this.link.loadTools().catch((error: unknown) => {
      this.logger.warn({ error: describeError(error) }, 'tools/list failed after connecting');
    });
  }

  username(): string | undefined {
    return this.keyring.account?.username;
  }

  stats(): GameStats {
    return { ...this.counters, ...this.limits.counters, reconnects: this.link.reconnects, ip: this.limits.health() };
  }

  onEvent(listener: (event: ConnectionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.lifetime.signal.aborted) return;
    this.lifetime.abort();
    await this.link.close();
    this.emit({ type: 'disconnected', reason: 'closed' });
  }

  async listTools(): Promise<ToolSpec[]> {
    if (this.link.tools) return this.link.tools;
    try {
      return await this.link.loadTools();
    } catch (error) {
      const failure = classifyCallError(error);
      if (failure.kind !== 'session_lost') throw new SkipperError('game_tools', `tools/list failed: ${failure.reason}`);
      await this.keeper.reconnectOrThrow(failure.reason, this.link.generation, undefined);
      return this.link.loadTools();
    }
  }

  async loginIfKnown(options: { signal?: AbortSignal } = {}): Promise<boolean> {
    if (this.keyLogin && !this.passwordGiven) return this.loginByKeyFirst(options.signal);
    const known = await this.keyring.known();
    if (!known) return false;
    await this.listTools().catch(() => undefined); // the profile says how to log in
    const login = this.loginCall(known.username, known.password);
    const result = await this.execute(login.name, login.args, options);
    if (result.isError) {
      this.logger.warn({ username: known.username, code: result.code }, 'stored credentials did not log in');
      return false;
    }
    return true;
  }

  /** The first login by key: a key that cannot log in ends the program with what to do (as a refused password). */
  private async loginByKeyFirst(signal: AbortSignal | undefined): Promise<boolean> {
    await this.listTools().catch(() => undefined); // the profile says how to spell login_token
    let result: ToolResult;
    try {
      result = await this.loginByKey(signal ?? this.lifetime.signal, true);
    } catch (error) {
      if (error instanceof KeyLoginError) throw new FatalError(error.code, error.message, { cause: error });
      throw error;
    }
    if (!result.isError) return true;
    throw new FatalError(
      'api_key_refused',
      `the game refused the login token minted with the API key (${result.text.split('\n')[0]}). Try again; if it ` +
        'keeps happening, log in with --username and SKIPPER_GAME_PASSWORD instead.',
    );
  }

  /**
   * One login by key: a fresh token for the key's player, redeemed with login_token through the retry loop (which
   * waits out an auth outage). Throws KeyLoginError when the key cannot log in, AbortedError on abort.
   */
  private async loginByKey(signal: AbortSignal | undefined, canRecover: boolean): Promise<ToolResult> {
    const keyLogin = this.keyLogin;
    if (!keyLogin) throw new KeyLoginError('key_api', 'no API key was given');
    // Checked before a token is minted: a server without login_token would only waste it.
    if (!this.offersLoginToken()) {
      throw new KeyLoginError(
        'key_api',
        `${this.label} offers no login_token (its tools lack it), so the API key cannot log in there: ` +
          'log in with --username and SKIPPER_GAME_PASSWORD instead',
      );
    }
    const { username, token } = await keyLogin.mint(signal);
    this.keyring.expectKeyLogin(username, token);
    const { name, args } = this.link.profile.callFor('login_token', { token }) ?? { name: 'login_token', args: {} };
    const kind = this.link.kindOf(name, args);
    const call = { name, args, op: 'login_token' as const, kind, timeoutMs: this.queryMs, canRecover };
    const attempted = await this.attempt({ ...call, ...(signal ? { signal } : {}) });
    return this.recorded({ name, args, result: this.keyring.redact(attempted.result, { greeting: true }), own: true });
  }

  /** True when the server has login_token: its flat tool, or the action in its grouped tool's enum (when it lists one). */
  private offersLoginToken(): boolean {
    const call = this.link.profile.callFor('login_token', { token: '' });
    if (!call) return false;
    const action = call.args.action;
    const listed = (this.link.spec(call.name)?.inputSchema.properties?.action as { enum?: unknown } | undefined)?.enum;
    return typeof action !== 'string' || !Array.isArray(listed) || listed.includes(action);
  }

  /** A key login as a result: what the key could not do becomes an error result the caller hands on. */
  private async keyLoginResult(signal: AbortSignal | undefined, canRecover: boolean): Promise<ToolResult> {
    try {
      return await this.loginByKey(signal, canRecover);
    } catch (error) {
      if (!(error instanceof KeyLoginError)) throw error;
      this.logger.warn({ code: error.code }, 'could not log back in with the API key');
      return errorResult('not_authenticated', `not_authenticated: ${error.message}`);
    }
  }

  async call(name: string, args: Record<string, unknown>, options: GameCallOptions = {}): Promise<ToolResult> {
    const { result, reconnected, uncertain } = await this.executeWithNotice(name, args, options);
    // Recorded as the game said it (secrets redacted), before the labelling below rewrites other players' words.
    this.recorded({ name, args, result, own: false });
    // A grouped tool's action is what was done: the notice below names `jump`, not the `spacemolt` tool carrying it.
    const what = this.link.profile.opOf(name, args) ?? actionOf(args) ?? name;
    const guarded = guardUntrusted(what, result);
    if (!reconnected) return guarded;
    // A retried mutation that now fails may have failed because its first try went through: say so.
    const notice = !this.keyring.loggedIn
      ? RECONNECT_ONLY_NOTICE
      : uncertain && guarded.isError
        ? uncertainNotice(what)
        : RECONNECT_NOTICE;
    // Kept with the observation too: a reader of the stored message learns the call crossed a reconnect.
    const data =
      guarded.data && typeof guarded.data === 'object' ? { ...guarded.data, reconnected: true } : guarded.data;
    return { ...guarded, text: `${notice}\n${guarded.text}`, ...(data !== undefined ? { data } : {}) };
  }

  profile(): GameProfile {
    return this.link.profile;
  }

  guide(): GameGuide {
    return this.link.profile.guide;
  }

  kindOf(name: string, args: Record<string, unknown>): CallKind {
    return this.link.kindOf(name, args);
  }

  async writeLog(entry: string, options: GameCallOptions = {}): Promise<ToolResult | undefined> {
    await this.listTools().catch(() => undefined);
    const call = this.link.profile.callFor('captains_log_add', { content: entry });
    return call ? this.call(call.name, call.args, options) : undefined;
  }

  async fetchEvents(options: { signal?: AbortSignal; max?: number } = {}): Promise<GameEvents | undefined> {
    await this.listTools().catch(() => undefined);
    // Ask for no more than the block can show: what is cleared on the server and not shown would be lost.
    const maxLines = options.max ?? 20;
    const call = this.link.profile.callFor('get_notifications', {
      clear: true,
      limit: Math.min(100, Math.max(1, maxLines)),
    });
    if (!call) return undefined;
    const args = notificationArgs(call.args, this.link.spec(call.name));
    const { result } = await this.executeWithNotice(call.name, args, options.signal ? { signal: options.signal } : {});
    this.recorded({ name: call.name, args, result, own: true });
    // Notification ids are per player and restart with the server: dedupe per account and connection generation.
    return readEvents({
      result,
      seenIds: this.seenEvents.for(`${this.username() ?? ''}@${this.link.reconnects}`),
      maxLines,
    });
  }

  /** The connection's own calls (logins): as Game.call, without the untrusted labelling. */
  private async execute(name: string, args: Record<string, unknown>, options: GameCallOptions): Promise<ToolResult> {
    return this.recorded({ name, args, result: (await this.executeWithNotice(name, args, options)).result, own: true });
  }

  private recorded(call: {
    name: string;
    args: Record<string, unknown>;
    result: ToolResult;
    own: boolean;
  }): ToolResult {
    this.record?.({ type: 'call', ...call });
    return call.result;
  }

  /** The whole pipeline but the untrusted wrapping: guard, call with retries, capture, redact. */
  private async executeWithNotice(
    name: string,
    rawArgs: Record<string, unknown>,
    options: GameCallOptions,
  ): Promise<Attempted> {
    const op = this.link.profile.opOf(name, rawArgs);
    const outcome = await noticeIfSlow(this.prepareAndRun(name, rawArgs, options), {
      afterMs: this.slowNoticeMs,
      notice: (waitedMs) => this.emit({ type: 'waiting', tool: op ?? name, waitedMs }),
    });
    // One exit: whatever the game or an error message echoed, the model never sees a known secret.
    return {
      ...outcome,
      result: this.keyring.redact(outcome.result, {
        greeting: op === 'login' || op === 'login_token' || op === 'register',
      }),
    };
  }

  private async prepareAndRun(
    name: string,
    rawArgs: Record<string, unknown>,
    options: GameCallOptions,
  ): Promise<Attempted> {
    const { signal } = options;
    throwIfAborted(signal);
    const profile = this.link.profile;
    const op = profile.opOf(name, rawArgs);
    // The password field is the one place a login may carry a secret — its password, never the API key.
    if (op === 'login' && this.apiKey && revealsSecret(rawArgs.password, [this.apiKey]))
      return this.refuseSecret(name, rawArgs);
    // A login Skipper has no password for, with a key in hand (the model logging back in after a logout): by key.
    if (op === 'login' && this.keyLogin && !this.passwordGiven && (await this.wouldSendPlaceholder(rawArgs)))
      return { result: await this.keyLoginResult(signal, true), reconnected: false };
    const spec = this.link.spec(name);
    const { keyring, registrationCode } = this;
    const prepared = await prepareCall({
      op,
      args: rawArgs,
      spec,
      keyring,
      registrationCode,
      needsRegistrationCode: profile.needsRegistrationCode(spec),
    });
    if ('refused' in prepared)
      return prepared.secret ? this.refuseSecret(name, rawArgs) : { result: prepared.refused, reconnected: false };
    const kind = this.link.kindOf(name, rawArgs);
    const timeoutMs = options.timeoutMs ?? (kind === 'mutation' ? this.mutationMs : this.queryMs);
    const asked = { op, name, args: rawArgs };
    const local = kind === 'query' && !options.fresh ? this.limits.localAnswer(asked) : undefined;
    if (local) return { result: local, reconnected: false };
    const attempted = await this.attempt({
      name,
      args: prepared.args,
      op,
      kind,
      timeoutMs,
      canRecover: true,
      ...(signal ? { signal } : {}),
    });
    if (kind === 'query') this.limits.answered(asked, attempted.result);
    return attempted;
  }

  /** The one retry loop (attempt.ts), over this connection's parts. */
  private attempt(call: AttemptCall): Promise<Attempted> {
    return runAttempts(
      {
        link: this.link,
        limits: this.limits,
        keyring: this.keyring,
        capture: this.capture,
        keeper: this.keeper,
        retry: this.retry,
        clock: this.clock,
        logger: this.logger,
        emit: (event) => this.emit(event),
        counters: this.counters,
      },
      call,
    );
  }

  /** A call refused because its arguments would reveal a secret: counted, logged (argument names only) and told. */
  private refuseSecret(name: string, args: Record<string, unknown> = {}): Attempted {
    this.counters.refusedSecrets += 1;
    this.logger.warn({ tool: name, argumentKeys: Object.keys(args) }, 'tool call refused: arguments reveal a secret');
    this.emit({ type: 'secret-refused', tool: name });
    return { result: errorResult('refused', 'refused: would reveal a secret'), reconnected: false };
  }

  /** True when a `login` with these arguments would go out without a real password (none stored, none given). A
   * store that cannot be read says false: the login is then refused before it leaves (prepareCall). */
  private async wouldSendPlaceholder(args: Record<string, unknown>): Promise<boolean> {
    const filled = await this.keyring.fillLogin(args).catch((error: unknown) => {
      if (error instanceof AbortedError) throw error;
      return undefined;
    });
    if (!filled) return false;
    const password = filled.password;
    return typeof password !== 'string' || PLACEHOLDERS.has(password.trim().toLowerCase());
  }

  private loginCall(username: string, password: string): { name: string; args: Record<string, unknown> } {
    return this.loginSpelling.call(this.link.profile, username, password);
  }

  /** One login on the current connection, without reconnecting (used inside the reconnect loop itself). */
  private async loginOnce(account: Account): Promise<ToolResult> {
    const { name, args } = this.loginCall(account.username, account.password);
    const kind = this.link.kindOf(name, args);
    const call = {
      name,
      args,
      op: 'login' as const,
      kind,
      timeoutMs: this.queryMs,
      signal: this.lifetime.signal,
      canRecover: false,
    };
    return this.recorded({
      name,
      args,
      result: this.keyring.redact((await this.attempt(call)).result, { greeting: true }),
      own: true,
    });
  }

  private emit(event: ConnectionEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.logger.warn({ error: describeError(error) }, 'connection event listener threw');
      }
    }
  }
}

/** The strings no tool call may carry from the start: those handed in, the registration code and the API key. */
function secretsOf(options: ConnectGameOptions): string[] {
  const { secrets = [], registrationCode, apiKey } = options;
  return [...secrets, registrationCode, apiKey].filter((secret): secret is string => Boolean(secret));
}

/** The game's own key API, at its origin; a game not reached over HTTP has none to offer. */
function httpKeyApi(target: GameTarget, apiKey: string, clock: GameClock): AuthApi {
  if (target.kind !== 'http') {
    throw new UsageError(
      '--api-key / SKIPPER_GAME_API_KEY needs a game reached over HTTP (its key API is at the same address): ' +
        'use --game spacemolt or a URL, or log in with --username and SKIPPER_GAME_PASSWORD',
    );
  }
  return httpAuthApi({ origin: keyApiOrigin(target.url), apiKey, now: () => clock.now() });
}

function actionOf(args: Record<string, unknown>): string | undefined {
  return typeof args.action === 'string' && args.action ? args.action.toLowerCase() : undefined;
}
