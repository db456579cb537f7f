// The OpenAI-compatible provider: the openai SDK (v6) over an undici Agent (keep-alive, connect/headers/body
// timeouts), always streaming through the SDK's own stream (openai-attempt.ts). One attempt = one HTTP request read
// to the end; `withRetry` is the only retry layer (the SDK's own retries are off). Deltas go to the UI as they
// arrive; once any did, a failure is not retried (that would show text twice) — except a stall (no bytes for
// `streamIdleTimeoutMs`): nothing of the reply was acted on inside the provider, so it is retried after a `restart`
// delta tells the UI to drop the partial text. Replies are cleaned up in openai-response.ts.
import type OpenAI from 'openai';
import type { Agent, fetch as undiciFetch } from 'undici';
import type { CompletionRequest, CompletionResponse, Logger, Provider, StreamDelta } from '../shared/index.js';
import { AbortedError, SkipperError, UsageError, silentLogger } from '../shared/index.js';
import { contextWindowFor } from './context-windows.js';
import { isBuiltinModel, type ModelConfig, type RemoteModelConfig } from './models.js';
import { attemptOnce } from './openai-attempt.js';
import { CallError, redact, toCallError } from './openai-errors.js';
import type { MappedReply } from './openai-mapping.js';
import { loadOpenAISdk, type OpenAISdk } from './openai-sdk.js';
import { toChatRequest } from './openai-request.js';
import { toResponse } from './openai-response.js';
import { priceFor } from './prices.js';
import { RetriesExhausted, withRetry, type RetryPolicy } from './retry.js';
import { acceptsImages } from './vision.js';

export type { ProviderUsage } from './openai-response.js';

export interface Timeouts {
  /** TCP/TLS connect. */
  connectMs: number;
  /** Request sent → response headers. Long: local models may think for minutes before the first byte. */
  headersMs: number;
  /** Longest silence between two body chunks. */
  bodyMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 10_000, headersMs: 300_000, bodyMs: 300_000 };
/** No bytes for this long once a reply started streaming: the stream is stalled (config `streamIdleTimeoutMs`). */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 60_000;

export interface OpenAIProviderOptions {
  logger?: Logger;
  timeouts?: Partial<Timeouts>;
  /** Longest silence within a streaming reply before it is given up as stalled and retried (default 60 s). */
  streamIdleTimeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  /** Replaces the undici fetch (the Agent and its timeouts are then the caller's business). */
  fetch?: typeof fetch;
  contextWindow?: number;
  /** The model accepts images (config.json `vision`); default: guessed from the model id (`acceptsImages`). */
  vision?: boolean;
  /** Told before each retry wait (for a "retrying in 2 s…" status line). */
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
}

export interface OpenAIProvider extends Provider {
  /** Closes idle keep-alive connections. */
  close(): Promise<void>;
}

export function createOpenAIProvider(config: ModelConfig, options: OpenAIProviderOptions = {}): OpenAIProvider {
  if (isBuiltinModel(config))
    throw new UsageError(`${config.id} is built in; it does not use the OpenAI-compatible provider`);
  const remote: RemoteModelConfig = config;
  const { timeouts, idleMs } = timeoutsFrom(options);
  const logger = (options.logger ?? silentLogger).child({ provider: config.id });
  // The SDK and its connection pool are made at the first request (see openai-sdk.ts).
  let opened: Promise<Connection> | undefined;
  const connection = (): Promise<Connection> => (opened ??= openConnection(remote, options, timeouts));
  const price = priceFor(config);
  const contextWindow = options.contextWindow ?? contextWindowFor(config.model, config.local);
  const vision = options.vision ?? acceptsImages(config.model);
  // Some older servers reject `stream_options`; after the first such 400 we stop sending it (usage is estimated).
  let sendStreamOptions = true;

  async function complete(request: CompletionRequest): Promise<CompletionResponse> {
    const body = toChatRequest(request.messages, request.tools, remote.model, { vision });
    if (!sendStreamOptions) delete body.stream_options;
    const state = { delivered: false };
    const emit = (delta: StreamDelta): void => {
      if (!request.onDelta) return;
      state.delivered = true;
      request.onDelta(delta);
    };
    let reply: MappedReply;
    try {
      reply = await withRetry(
        async (attempt) => {
          logger.debug({ attempt, messages: body.messages.length, tools: body.tools?.length ?? 0 }, 'chat request');
          try {
            const { sdk, client } = await connection();
            return await attemptOnce({ sdk, client, body, config: remote, signal: request.signal, emit, idleMs });
          } catch (error) {
            if (request.signal?.aborted) throw new AbortedError();
            const failure = toCallError(error, { config: remote, delivered: state.delivered });
            if (body.stream_options && refusesStreamOptions(failure)) {
              sendStreamOptions = false;
              delete body.stream_options;
              throw new CallError('bad_request', failure.message, { retryable: true, retryAfterMs: 0 });
            }
            throw failure;
          }
        },
        {
          ...options.retry,
          ...(request.signal ? { signal: request.signal } : {}),
          classify: classifyForRetry,
          onRetry: ({ attempt, delayMs, error }) => {
            if (error instanceof CallError && error.code === 'stalled' && state.delivered) {
              // The partial reply is void: the retry streams a whole new one.
              state.delivered = false;
              request.onDelta?.({ type: 'restart' });
            }
            const reason = error instanceof Error ? error.message : String(error);
            logger.warn({ attempt, delayMs, code: (error as { code?: string }).code }, 'model call failed; retrying');
            options.onRetry?.({ attempt, delayMs, reason });
          },
        },
      );
    } catch (error) {
      throw finalError(error, remote);
    }
    return toResponse({ reply, request, config: remote, price, body });
  }

  return {
    id: config.id,
    ...(contextWindow !== undefined ? { contextWindow } : {}),
    complete,
    close: async () => {
      // Idempotent: the CLI may close on both /quit and shutdown. Nothing to close before the first request.
      const agent = opened ? (await opened.catch(() => undefined))?.agent : undefined;
      if (agent && !agent.closed && !agent.destroyed) await agent.close();
    },
  };
}

interface Connection {
  sdk: OpenAISdk;
  client: OpenAI;
  agent: Agent | undefined;
}

/** Loads the SDK and makes the client. Every option the SDK would otherwise read from process.env is given explicitly
 * (no OPENAI_* leaks to a local or custom server). */
async function openConnection(
  config: RemoteModelConfig,
  options: OpenAIProviderOptions,
  timeouts: Timeouts,
): Promise<Connection> {
  const sdk = await loadOpenAISdk();
  const { fetch: fetchImpl, baseURL, agent } = connectionFetch(sdk, config, options, timeouts);
  const client = new sdk.OpenAI({
    apiKey: config.apiKey ?? 'no-key',
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    baseURL,
    maxRetries: 0,
    // The SDK's timer covers connect + wait for headers with a precise clock; undici's own checks are coarse.
    timeout: timeouts.connectMs + timeouts.headersMs,
    fetch: fetchImpl,
    logLevel: 'off',
  });
  return { sdk, client, agent };
}

/** The connection timeouts and the stream's idle limit: the options' where they are positive numbers, else defaults. */
function timeoutsFrom(options: OpenAIProviderOptions): { timeouts: Timeouts; idleMs: number } {
  const timeouts: Timeouts = { ...DEFAULT_TIMEOUTS };
  for (const key of ['connectMs', 'headersMs', 'bodyMs'] as const) {
    const value = options.timeouts?.[key];
    if (value !== undefined && Number.isFinite(value) && value > 0) timeouts[key] = value;
  }
  const idleMs =
    options.streamIdleTimeoutMs !== undefined &&
    Number.isFinite(options.streamIdleTimeoutMs) &&
    options.streamIdleTimeoutMs > 0
      ? options.streamIdleTimeoutMs
      : DEFAULT_STREAM_IDLE_TIMEOUT_MS;
  return { timeouts, idleMs };
}

/** A 400 that names `stream_options`: an older server that does not take it (sent again without it). */
function refusesStreamOptions(failure: Error): boolean {
  return (
    failure instanceof CallError &&
    failure.code === 'bad_request' &&
    /stream_options|include_usage/i.test(failure.message)
  );
}

/** Retry what the classification marked retryable, after the wait the server asked for when it asked for one. */
function classifyForRetry(error: unknown): { retry: boolean; retryAfterMs?: number } {
  return error instanceof CallError && error.retryable
    ? { retry: true, ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}) }
    : { retry: false };
}

/** The error `complete` throws: retries-exhausted spelled out, and never the API key in the message. */
function finalError(error: unknown, config: RemoteModelConfig): unknown {
  let out = error;
  if (error instanceof RetriesExhausted) {
    const last = error.cause;
    const code = last instanceof SkipperError ? last.code : 'provider_error';
    const message = last instanceof Error ? last.message : String(last);
    out = new SkipperError(code, `${message} — gave up after ${error.attempts} attempts`);
  }
  if (out instanceof Error && config.apiKey && out.message.includes(config.apiKey))
    out.message = redact(out.message, { config });
  return out;
}

/** `scheme://user:password@host/…` as the URL without them and a Basic authorization header made of them. */
export function splitUrlCredentials(url: string): { url: string; basic?: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url };
  }
  if (parsed.username === '' && parsed.password === '') return { url };
  const userinfo = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.toString().replace(/\/$/, ''), basic: `Basic ${Buffer.from(userinfo).toString('base64')}` };
}

/** The fetch the SDK uses (undici with Skipper's timeouts, unless a test gives its own) and the base URL it is given. */
function connectionFetch(
  sdk: Pick<OpenAISdk, 'Agent' | 'undiciFetch'>,
  config: RemoteModelConfig,
  options: OpenAIProviderOptions,
  timeouts: Timeouts,
): { fetch: typeof fetch; baseURL: string; agent: Agent | undefined } {
  const agent = options.fetch
    ? undefined
    : new sdk.Agent({
        connect: { timeout: timeouts.connectMs },
        headersTimeout: timeouts.headersMs,
        bodyTimeout: timeouts.bodyMs,
        keepAliveTimeout: 30_000,
      });
  const baseFetch =
    options.fetch ??
    // undici's fetch types differ from the DOM ones the SDK declares; the runtime objects are the same.
    (((url: unknown, init: unknown) =>
      sdk.undiciFetch(
        url as string,
        { ...(init as object), dispatcher: agent } as Parameters<typeof undiciFetch>[1],
      )) as unknown as typeof fetch);
  // fetch refuses a URL with `user:password@`: the credentials leave the URL and go as Basic auth, unless an API key
  // is in use (its Bearer header wins).
  const { url: baseURL, basic } = splitUrlCredentials(config.baseUrl);
  const fetchImpl: typeof fetch =
    basic && config.apiKey === undefined
      ? (url, init) => {
          const headers = new Headers(init?.headers);
          headers.set('authorization', basic);
          return baseFetch(url, { ...init, headers });
        }
      : baseFetch;
  return { fetch: fetchImpl, baseURL, agent };
}
