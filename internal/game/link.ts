// The MCP client link under a game connection: opening it, reopening it after a lost session (one reconnect at a
// time, bounded backoff), the tool catalog it carries, and single tool calls with the turn's signal and a timeout.
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  AbortedError,
  SkipperError,
  parseRetryAfter,
  raceAbort,
  scopedSignal,
  throwIfAborted,
  type CallKind,
  type ConnectionEvent,
  type Logger,
  type ToolResult,
  type ToolSpec,
  callKind,
} from '../shared/index.js';

import { toToolSpec, type McpToolLike } from './classify.js';
import { describeFilledParams } from './filled-args.js';
import type { GameClock, GameExchange, resolveRetry } from './options.js';
import { detectProfile, type GameProfile } from './profile.js';
import { classifyCallError, describeError, fromCallResult, type CallFailure } from './result.js';
import type { GameTarget } from './target.js';
import { openClient, type OpenedClient } from './transport.js';
import { leanFetch, leanPost } from './lean-fetch.js';
import type { LeanPost } from './lean-transport.js';

export type Outcome = { result: ToolResult; generation: number } | { failure: CallFailure; generation: number };

export interface LinkOptions {
  target: GameTarget;
  url: string;
  logger: Logger;
  connectMs: number;
  queryMs: number;
  retry: ReturnType<typeof resolveRetry>;
  classify?: Record<string, CallKind>;
  /** Aborted when the connection closes: ends waits and calls. */
  lifetime: AbortSignal;
  /** Backoff between reconnect attempts waits on it; Retry-After dates are read against its now. */
  clock: GameClock;
  emit: (event: ConnectionEvent) => void;
  /** Told of the initialize result and every tools/list, page by page (`--capture`). */
  record?: (exchange: GameExchange) => void;
}

export class GameLink {
  /** Bumped on every successful (re)connect, so calls that failed on an old link do not reconnect twice. */
  generation = 0;
  reconnects = 0;
  tools: ToolSpec[] | undefined;
  /** Generic until the tool list says otherwise; re-detected on every tools/list (a reconnect may meet a new server). */
  profile: GameProfile = detectProfile({ tools: [] });
  /** Milliseconds from the last HTTP 429's Retry-After header. */
  lastRetryAfterMs: number | undefined;
  /** Until when (on the clock) the last HTTP 503 with Retry-After asked us to wait. */
  private unavailableUntil = 0;
  private opened: OpenedClient | undefined;
  private reconnecting: Promise<void> | undefined;

  constructor(private readonly options: LinkOptions) {}

  async open(): Promise<void> {
    const generation = this.generation + 1;
    const opened = await openClient({
      target: this.options.target,
      timeoutMs: this.options.connectMs,
      signal: this.options.lifetime,
      fetch: this.fetchWithRetryAfter,
      post: this.postWithRetryAfter,
      logger: this.options.logger,
      onClose: () => {
        if (this.generation !== generation || this.opened !== opened) return;
        this.options.logger.info({}, 'game transport closed');
        this.opened = undefined;
        this.options.emit({ type: 'disconnected', reason: 'transport closed' });
      },
    });
    this.opened = opened;
    this.generation = generation;
    this.options.emit({ type: 'connected', url: this.options.url });
  }

  async close(): Promise<void> {
    const opened = this.opened;
    this.opened = undefined;
    await opened?.close();
  }

  async loadTools(): Promise<ToolSpec[]> {
    const opened = this.opened;
    if (!opened) throw new SkipperError('disconnected', 'not connected to the game');
    const raw: McpToolLike[] = [];
    const pages: Array<{ tools: unknown[]; nextCursor?: string }> = [];
    let cursor: string | undefined;
    const cursors = new Set<string>();
    do {
      // A server that repeats a cursor (or pages forever) must not hang start-up or a reconnect.
      if (cursor !== undefined) {
        if (cursors.has(cursor) || cursors.size >= 50) break;
        cursors.add(cursor);
      }
      const page = await opened.client.listTools(cursor ? { cursor } : undefined, { timeout: this.options.queryMs });
      raw.push(...page.tools);
      pages.push({ tools: page.tools, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
      cursor = page.nextCursor;
    } while (cursor);
    this.recordHandshake(opened, pages);
    this.profile = detectProfile({
      serverName: opened.client.getServerVersion()?.name,
      serverVersion: opened.client.getServerVersion()?.version,
      instructions: opened.client.getInstructions(),
      tools: raw,
    });
    const shipped = this.profile.id !== 'generic';
    const classify = this.options.classify;
    const tools = raw.map((tool) =>
      describeFilledParams(toToolSpec(tool, { shipped, ...(classify ? { overrides: classify } : {}) })),
    );
    this.tools = tools;
    return tools;
  }

  /** The server's initialize answer and its tool list, for `--capture`: once per (re)load, as the server gave them. */
  private recordHandshake(opened: OpenedClient, pages: Array<{ tools: unknown[]; nextCursor?: string }>): void {
    const record = this.options.record;
    if (!record) return;
    const info = opened.client.getServerVersion();
    const instructions = opened.client.getInstructions();
    record({
      type: 'initialize',
      serverInfo: { ...(info?.name ? { name: info.name } : {}), ...(info?.version ? { version: info.version } : {}) },
      capabilities: { ...opened.client.getServerCapabilities() },
      ...(instructions ? { instructions } : {}),
    });
    record({ type: 'tools-list', pages });
  }

  spec(name: string): ToolSpec | undefined {
    return this.tools?.find((tool) => tool.name === name);
  }

  /** The kind of one call (a grouped tool's action decides); a tool we do not know is a mutation (the safe guess). */
  kindOf(name: string, args: Record<string, unknown>): CallKind {
    const spec = this.spec(name);
    if (!spec) return this.options.classify?.[name] ?? 'mutation';
    return callKind(spec, args);
  }

  /** One tools/call. Throws only AbortedError (the turn's signal, or the connection closing). */
  async invoke(call: {
    name: string;
    args: Record<string, unknown>;
    timeoutMs: number;
    signal?: AbortSignal;
  }): Promise<Outcome> {
    const generation = this.generation;
    const opened = this.opened;
    if (!opened) return { failure: { kind: 'session_lost', reason: 'not connected', notSent: true }, generation };
    const { lifetime, logger } = this.options;
    // A scoped signal, disposed after the call: the SDK keeps an abort listener on whatever signal it is given, so
    // handing it the turn's long-lived signal (or AbortSignal.any/timeout of it) would pile up one per call.
    const scoped = scopedSignal(call.signal, call.timeoutMs);
    try {
      // The SDK's parameter is typed as its zod schema; it only calls safeParse on what it is given.
      const check = opened.callResult as unknown as typeof CallToolResultSchema;
      const raw = await opened.client.callTool({ name: call.name, arguments: call.args }, check, {
        signal: scoped.signal,
        timeout: call.timeoutMs,
        resetTimeoutOnProgress: true,
      });
      return { result: fromCallResult(raw), generation };
    } catch (error) {
      if (call.signal?.aborted || lifetime.aborted) throw new AbortedError();
      if (scoped.timedOut) return { failure: { kind: 'timeout', reason: 'timed out' }, generation };
      const failure = this.unavailable(classifyCallError(error));
      logger.info({ tool: call.name, failure: failure.kind, reason: failure.reason }, 'game call failed');
      return { failure, generation };
    } finally {
      scoped.dispose();
    }
  }

  /**
   * Reopens the link unless another call already did since `failedGeneration`; `afterConnect` logs back in.
   * Concurrent callers share one attempt; each may leave on its own abort.
   */
  async reconnect(options: {
    reason: string;
    failedGeneration: number;
    signal?: AbortSignal;
    afterConnect: () => Promise<void>;
  }): Promise<void> {
    if (this.generation !== options.failedGeneration && this.opened) return;
    this.reconnecting ??= this.reconnectLoop(options.reason, options.afterConnect).finally(() => {
      this.reconnecting = undefined;
    });
    await raceAbort(this.reconnecting, options.signal);
  }

  private async reconnectLoop(reason: string, afterConnect: () => Promise<void>): Promise<void> {
    const { retry, lifetime, logger, emit, clock } = this.options;
    await this.close();
    let lastError: unknown;
    for (let attempt = 1; attempt <= retry.reconnectAttempts; attempt += 1) {
      throwIfAborted(lifetime);
      emit({ type: 'reconnecting', attempt, reason });
      logger.info({ attempt, reason }, 'reconnecting to the game');
      try {
        await this.open();
        this.reconnects += 1;
        await this.loadTools().catch(() => undefined);
        await afterConnect();
        return;
      } catch (error) {
        lastError = error;
        if (error instanceof AbortedError) throw error;
        if (error instanceof SkipperError && error.code === 'relogin_refused') throw error;
        logger.warn({ attempt, error: describeError(error) }, 'reconnect attempt failed');
        if (attempt < retry.reconnectAttempts) {
          // The first retry comes quickly: after a restart the first failure is often only a stale pooled socket.
          const delay = attempt === 1 ? Math.min(50, retry.backoffMs) : retry.backoffMs * 2 ** (attempt - 2);
          await clock.sleep(Math.min(delay, retry.maxBackoffMs), lifetime);
        }
      }
    }
    emit({ type: 'disconnected', reason: describeError(lastError) });
    throw new SkipperError(
      'disconnected',
      `lost the game session (${reason}) and could not reconnect after ${retry.reconnectAttempts} attempts ` +
        `(${describeError(lastError)}); the game may be down, try again later`,
    );
  }

  /** An HTTP 503 that came with Retry-After is an outage to wait out, not a lost session to reopen at once. */
  private unavailable(failure: CallFailure): CallFailure {
    const waitMs = this.unavailableUntil - this.options.clock.now();
    if (failure.kind !== 'session_lost' || failure.reason !== 'HTTP 503' || waitMs <= 0) return failure;
    return { kind: 'http_unavailable', reason: 'HTTP 503 with Retry-After', retryAfterMs: waitMs };
  }

  /** Reads Retry-After from a 429 (how long to slow down) and a 503 (how long the game says it is down). */
  private noteRetryAfter(status: number, header: string | null): void {
    if (status !== 429 && status !== 503) return;
    const now = this.options.clock.now();
    const ms = parseRetryAfter(header, now);
    if (status === 429) this.lastRetryAfterMs = ms;
    else if (ms !== undefined) this.unavailableUntil = now + Math.max(1, ms);
  }

  private readonly fetchWithRetryAfter: FetchLike = async (url, init) => {
    const response = await leanFetch(url, init);
    this.noteRetryAfter(response.status, response.headers.get('retry-after'));
    return response;
  };

  private readonly postWithRetryAfter: LeanPost = async (url, init) => {
    const answer = await leanPost(url, init);
    this.noteRetryAfter(answer.status, answer.header('retry-after'));
    return answer;
  };
}
