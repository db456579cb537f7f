// The game connection: one MCP client per game that reconnects, logs back in, waits out rate limits, guards
// secrets and labels other players' words. Game.call never throws for game-level failures, only on abort.
import {
  AbortedError,
  SkipperError,
  raceAbort,
  silentLogger,
  sleep,
  throwIfAborted,
  type CallKind,
  type ConnectionEvent,
  type GameCallOptions,
  type GameOp,
  type Logger,
  type ToolResult,
  type ToolSpec,
} from '../shared/index.js';

import { credentialKeys } from './credential-key.js';
import { Displacements } from './displacement.js';
import { Keyring } from './keyring.js';
import { LoginSpelling } from './login-spelling.js';
import { prepareCall } from './prepare-call.js';
import { withObservation, type GameProfile } from './profile.js';
import { RECONNECT_NOTICE, RECONNECT_ONLY_NOTICE, resolveRetry, uncertainNotice, type ConnectGameOptions, type GameConnection, type GameStats } from './options.js';
import { classifyCallError, describeError, errorResult, finalFailure, rateLimitWaitSeconds } from './result.js';
import { GameLink } from './link.js';
import { targetLabel, targetUrl } from './target.js';
import { eventsBlock, guardUntrusted, notificationArgs, SeenEvents } from './untrusted.js';
import { noteAccount, type AccountContext } from './account-events.js';

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
  private readonly listeners = new Set<(event: ConnectionEvent) => void>();
  private readonly lifetime = new AbortController();
  private readonly counters: Omit<GameStats, 'reconnects'> = { refusedSecrets: 0, rateLimitWaits: 0, relogins: 0 };
  private readonly link: GameLink;
  private readonly seenEvents = new SeenEvents();
  private relogging: Promise<ToolResult> | undefined;
  private loginGeneration = 0;
  private readonly displacements: Displacements;
  private readonly loginSpelling = new LoginSpelling();
  private readonly accountContext: AccountContext;
  private readonly registrationCode: string | undefined;

  constructor(options: ConnectGameOptions) {
    this.url = targetUrl(options.target);
    this.label = targetLabel(options.target);
    this.logger = (options.logger ?? silentLogger).child({ module: 'game', game: this.label });
    this.registrationCode = options.registrationCode || undefined;
    const secrets = [...(options.secrets ?? []), ...(this.registrationCode ? [this.registrationCode] : [])];
    this.keyring = new Keyring({
      store: options.credentials,
      keys: credentialKeys(options.target),
      ...(options.username ? { username: options.username } : {}),
      secrets,
    });
    if (options.username && options.password) this.keyring.seed(options.username, options.password);
    this.accountContext = { keyring: this.keyring, spelling: this.loginSpelling, logger: this.logger, emit: (event) => this.emit(event) };
    this.retry = resolveRetry(options.retry);
    const { displacedWindowMs: windowMs, displacedMax: max, backoffMs, maxBackoffMs } = this.retry;
    this.displacements = new Displacements({ windowMs, max, backoffMs, maxBackoffMs });
    this.queryMs = options.timeouts?.queryMs ?? 30_000;
    this.mutationMs = options.timeouts?.mutationMs ?? 600_000;
    this.link = new GameLink({
      target: options.target,
      url: this.url,
      logger: this.logger,
      connectMs: options.timeouts?.connectMs ?? Math.min(this.queryMs, 30_000),
      queryMs: this.queryMs,
      retry: this.retry,
      ...(options.classify ? { classify: options.classify } : {}),
      lifetime: this.lifetime.signal,
      emit: (event) => this.emit(event),
    });
  }

  async start(): Promise<void> {
    this.emit({ kind: 'connecting', url: this.url });
    await this.link.open();
    await this.link.loadTools().catch((error: unknown) => {
      this.logger.warn({ error: describeError(error) }, 'tools/list failed after connecting');
    });
  }

  username(): string | undefined {
    return this.keyring.account?.username;
  }

  stats(): GameStats {
    return { ...this.counters, reconnects: this.link.reconnects };
  }

  onEvent(listener: (event: ConnectionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.lifetime.signal.aborted) return;
    this.lifetime.abort();
    await this.link.close();
    this.emit({ kind: 'disconnected', reason: 'closed' });
  }

  async listTools(): Promise<ToolSpec[]> {
    if (this.link.tools) return this.link.tools;
    try {
      return await this.link.loadTools();
    } catch (error) {
      const failure = classifyCallError(error);
      if (failure.kind !== 'session-lost') throw new SkipperError('game-tools', `tools/list failed: ${failure.reason}`);
      await this.recoverOrThrow(failure.reason, this.link.generation, undefined);
      return this.link.loadTools();
    }
  }

  async loginIfKnown(options: { signal?: AbortSignal } = {}): Promise<boolean> {
    const known = this.keyring.known();
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

  async call(name: string, args: Record<string, unknown>, options: GameCallOptions = {}): Promise<ToolResult> {
    const { result, reconnected, uncertain } = await this.executeWithNotice(name, args, options);
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
    return { ...guarded, text: `${notice}\n${guarded.text}` };
  }

  profile(): GameProfile {
    return this.link.profile;
  }

  kindOf(name: string, args: Record<string, unknown>): CallKind {
    return this.link.kindOf(name, args);
  }

  async writeLog(entry: string, options: GameCallOptions = {}): Promise<ToolResult | undefined> {
    await this.listTools().catch(() => undefined);
    const call = this.link.profile.callFor('captains_log_add', { content: entry });
    return call ? this.call(call.name, call.args, options) : undefined;
  }

  async fetchEvents(options: { signal?: AbortSignal; max?: number } = {}): Promise<string | undefined> {
    await this.listTools().catch(() => undefined);
    // Ask for no more than the block can show: what is cleared on the server and not shown would be lost.
    const maxLines = options.max ?? 20;
    const call = this.link.profile.callFor('get_notifications', { clear: true, limit: Math.min(100, Math.max(1, maxLines)) });
    if (!call) return undefined;
    const args = notificationArgs(call.args, this.link.spec(call.name));
    const { result } = await this.executeWithNotice(call.name, args, options.signal ? { signal: options.signal } : {});
    // Notification ids are per player and restart with the server: dedupe per account and connection generation.
    return eventsBlock({ result, seenIds: this.seenEvents.for(`${this.username() ?? ''}@${this.link.reconnects}`), maxLines });
  }

  private async execute(name: string, args: Record<string, unknown>, options: GameCallOptions): Promise<ToolResult> {
    return (await this.executeWithNotice(name, args, options)).result;
  }

  /** The whole pipeline but the untrusted wrapping: guard, call with retries, capture, redact. */
  private async executeWithNotice(
    name: string,
    rawArgs: Record<string, unknown>,
    options: GameCallOptions,
  ): Promise<{ result: ToolResult; reconnected: boolean; uncertain?: boolean }> {
    const outcome = await this.runWithRetries(name, rawArgs, options);
    const op = this.link.profile.opOf(name, rawArgs);
    // One exit: whatever the game or an error message echoed, the model never sees a known secret.
    return { ...outcome, result: this.keyring.redact(outcome.result, { greeting: op === 'login' || op === 'register' }) };
  }

  private async runWithRetries(
    name: string,
    rawArgs: Record<string, unknown>,
    options: GameCallOptions,
  ): Promise<{ result: ToolResult; reconnected: boolean; uncertain?: boolean }> {
    const { signal } = options;
    throwIfAborted(signal);
    const profile = this.link.profile;
    const operation = profile.opOf(name, rawArgs);
    const spec = this.link.spec(name);
    const prepared = prepareCall({
      op: operation,
      args: rawArgs,
      spec,
      keyring: this.keyring,
      registrationCode: this.registrationCode,
      needsRegistrationCode: profile.needsRegistrationCode(spec),
    });
    if ('refused' in prepared) {
      if (prepared.secret) {
        this.counters.refusedSecrets += 1;
        this.logger.warn({ tool: name, argumentKeys: Object.keys(rawArgs) }, 'tool call refused: arguments reveal a secret');
        this.emit({ kind: 'secret-refused', tool: name });
      }
      return { result: prepared.refused, reconnected: false };
    }
    const { args } = prepared;
    const kind = this.link.kindOf(name, rawArgs);
    const timeoutMs = options.timeoutMs ?? (kind === 'mutation' ? this.mutationMs : this.queryMs);
    let reconnected = false;
    let recovered = false;
    let uncertain = false;
    let waits = 0;
    for (;;) {
      const loginGeneration = this.loginGeneration;
      const outcome = await this.link.invoke({ name, args, timeoutMs, ...(signal ? { signal } : {}) });
      if ('failure' in outcome) {
        const { failure } = outcome;
        if (failure.kind === 'bad-response') this.logger.warn({ tool: name, reason: failure.reason }, 'unreadable answer from the game');
        const final = finalFailure(name, failure, timeoutMs);
        if (final) return { result: final, reconnected };
        if (failure.kind === 'http-rate-limited') {
          const seconds = this.link.lastRetryAfterSeconds ?? 1;
          if (waits >= this.retry.rateLimitWaits) {
            return { result: errorResult('rate_limited', `rate_limited: the game keeps refusing with HTTP 429; retry after ${seconds} s`), reconnected };
          }
          waits += 1;
          await this.waitRateLimit(seconds, signal);
          continue;
        }
        if (recovered) {
          return { result: errorResult('disconnected', `disconnected: lost the game session again right after reconnecting (${failure.reason}); try again shortly`), reconnected };
        }
        recovered = true;
        // Once a mutation was sent, a broken session (even a 404 from a server shutting down) leaves its outcome open.
        uncertain = !(failure.kind === 'session-lost' && failure.notSent === true) && kind === 'mutation';
        const failed = await this.recover(failure.reason, outcome.generation, signal);
        if (failed) return { result: failed, reconnected };
        reconnected = true;
        continue;
      }
      const result = withObservation(profile, operation, outcome.result);
      const waitSeconds = rateLimitWaitSeconds(result);
      if (waitSeconds !== undefined && waits < this.retry.rateLimitWaits) {
        waits += 1;
        await this.waitRateLimit(waitSeconds, signal);
        continue;
      }
      if (this.lostLogin(operation, result) && !recovered) {
        recovered = true;
        const failed = await this.relogin(result, loginGeneration, signal);
        if (failed) return { result: failed, reconnected };
        reconnected = true;
        continue;
      }
      if (!result.isError && noteAccount(this.accountContext, { operation, name, args, result })) {
        this.loginGeneration += 1;
      }
      return { result, reconnected, uncertain };
    }
  }

  private loginCall(username: string, password: string): { name: string; args: Record<string, unknown> } {
    return this.loginSpelling.call(this.link.profile, username, password);
  }

  private lostLogin(operation: GameOp | undefined, result: ToolResult): boolean {
    if (operation === 'login' || operation === 'register' || operation === 'logout' || !this.keyring.account) return false;
    return result.code === 'session_replaced' || (result.code === 'not_authenticated' && this.keyring.loggedIn);
  }

  private async waitRateLimit(seconds: number, signal: AbortSignal | undefined): Promise<void> {
    const waitMs = Math.min(Math.max(0, seconds * 1000), this.retry.maxWaitMs);
    this.counters.rateLimitWaits += 1;
    this.emit({ kind: 'rate-limited', waitMs });
    this.logger.info({ waitMs }, 'rate limited; waiting before retrying');
    await sleep(waitMs, signal);
  }

  /** Reconnects (unless another call already did) and logs back in; returns an error result when it cannot. */
  private async recover(reason: string, failedGeneration: number, signal: AbortSignal | undefined): Promise<ToolResult | undefined> {
    try {
      await this.recoverOrThrow(reason, failedGeneration, signal);
      return undefined;
    } catch (error) {
      if (error instanceof AbortedError) throw error;
      if (error instanceof SkipperError && error.code === 'relogin-refused') return errorResult('not_authenticated', `not_authenticated: ${error.message}`);
      return errorResult('disconnected', `disconnected: ${describeError(error)}`);
    }
  }

  private async recoverOrThrow(reason: string, failedGeneration: number, signal: AbortSignal | undefined): Promise<void> {
    await this.link.reconnect({
      reason,
      failedGeneration,
      ...(signal ? { signal } : {}),
      afterConnect: async () => {
        const account = this.keyring.account;
        if (!account || !this.keyring.loggedIn) return;
        const result = await this.loginOnce(account.username, account.password);
        if (result.isError) {
          // Connected, but the account is refused (a wiped world, a reset password): reconnecting again won't help.
          this.keyring.loggedIn = false;
          throw new SkipperError('relogin-refused', `reconnected, but logging back in as ${account.username} failed: ${result.text}`);
        }
        this.counters.relogins += 1;
      },
    });
  }

  /** One login on the current connection, without reconnecting (used inside the reconnect loop itself). */
  private async loginOnce(username: string, password: string): Promise<ToolResult> {
    let waits = 0;
    for (;;) {
      const login = this.loginCall(username, password);
      const outcome = await this.link.invoke({ name: login.name, args: login.args, timeoutMs: this.queryMs });
      if ('failure' in outcome) throw new SkipperError('relogin', `login failed: ${outcome.failure.reason}`);
      const wait = rateLimitWaitSeconds(outcome.result);
      if (wait !== undefined && waits < this.retry.rateLimitWaits) {
        waits += 1;
        await this.waitRateLimit(wait, this.lifetime.signal);
        continue;
      }
      if (!outcome.result.isError && noteAccount(this.accountContext, { operation: 'login', name: login.name, args: { ...login.args, username, password }, result: outcome.result })) {
        this.loginGeneration += 1;
      }
      return this.keyring.redact(outcome.result, { greeting: true });
    }
  }

  /** Logs back in after session_replaced / not_authenticated, unless another client keeps displacing us. */
  private async relogin(result: ToolResult, failedLoginGeneration: number, signal: AbortSignal | undefined): Promise<ToolResult | undefined> {
    const account = this.keyring.account;
    if (!account) return result;
    if (this.loginGeneration !== failedLoginGeneration) return undefined;
    // Parallel calls displaced together share one re-login and count as one displacement.
    if (this.relogging) return this.reloginOutcome(account.username, await raceAbort(this.relogging, signal));
    // Counts both codes: some servers log a displaced session out, so it then reads not_authenticated.
    if (!this.displacements.admit()) {
      // Stop claiming to be logged in, so later not_authenticated results reach the model instead of re-login.
      this.keyring.loggedIn = false;
      this.logger.warn({ username: account.username, count: this.displacements.count }, 'displaced repeatedly; not logging back in');
      this.emit({ kind: 'disconnected', reason: 'session replaced by another login' });
      return this.displacements.refusal(account.username);
    }
    this.relogging ??= (async (): Promise<ToolResult> => {
      const wait = this.displacements.backoffMs();
      if (wait > 0) await sleep(wait, this.lifetime.signal);
      const call = this.loginCall(account.username, account.password);
      const login = await this.execute(call.name, call.args, {});
      if (!login.isError) this.counters.relogins += 1;
      return login;
    })().finally(() => {
      this.relogging = undefined;
    });
    return this.reloginOutcome(account.username, await raceAbort(this.relogging, signal));
  }

  private reloginOutcome(username: string, login: ToolResult): ToolResult | undefined {
    if (!login.isError) return undefined;
    return errorResult(login.code ?? 'not_authenticated', `could not log back in as ${username}: ${login.text}`);
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

function actionOf(args: Record<string, unknown>): string | undefined {
  return typeof args.action === 'string' && args.action ? args.action.toLowerCase() : undefined;
}
