// The OpenAI-compatible provider: the openai SDK (v6) over an undici Agent (keep-alive, connect/headers/body
// timeouts), always streaming. One attempt = one HTTP request read to the end; `withRetry` is the only retry layer
// (the SDK's own retries are off). Deltas go to the UI as they arrive; once any did, a failure is not retried
// (that would show text twice) — except a stall (no bytes for `streamIdleTimeoutMs`): nothing of the reply was acted
// on inside the provider, so it is retried after a `restart` delta tells the UI to drop the partial text. Replies are cleaned up here: missing tool-call ids, empty names, tool calls written
// as text, <think> blocks. Usage comes from the server or is estimated (chars/4) and marked.
import OpenAI from 'openai';
import { Agent, fetch as undiciFetch } from 'undici';
import type { CompletionRequest, CompletionResponse, Logger, Provider, StreamDelta, Usage } from '../shared/index.js';
import { AbortedError, SkipperError, UsageError, silentLogger } from '../shared/index.js';
import { isBuiltinModel, type ModelConfig, type RemoteModelConfig } from './models.js';
import { CallError, displayUrl, redact, toCallError } from './openai-errors.js';
import {
  estimatePromptTokens,
  finaliseToolCalls,
  fromChatResponse,
  splitThinkTags,
  StreamAccumulator,
  toChatRequest,
  type MappedReply,
} from './openai-mapping.js';
import { contextWindowFor } from './context-windows.js';
import { acceptsImages } from './vision.js';
import { costUsd, priceFor } from './prices.js';
import { RetriesExhausted, withRetry, type RetryPolicy } from './retry.js';
import { readSseData } from './sse.js';
import { StreamStalled, withIdleTimeout } from './stream-idle.js';
import { extractTextToolCalls } from './text-tool-calls.js';

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

/** Usage with two flags the UI needs: `estimated` (server sent none; ≈ chars/4) and `priced` (cost known). */
export type ProviderUsage = Usage & { estimated: boolean; priced: boolean };

export interface OpenAIProvider extends Provider {
  /** Closes idle keep-alive connections. */
  close(): Promise<void>;
}

export function createOpenAIProvider(config: ModelConfig, options: OpenAIProviderOptions = {}): OpenAIProvider {
  if (isBuiltinModel(config)) throw new UsageError(`${config.id} is built in; it does not use the OpenAI-compatible provider`);
  const remote: RemoteModelConfig = config;
  const timeouts: Timeouts = { ...DEFAULT_TIMEOUTS };
  for (const key of ['connectMs', 'headersMs', 'bodyMs'] as const) {
    const value = options.timeouts?.[key];
    if (value !== undefined && Number.isFinite(value) && value > 0) timeouts[key] = value;
  }
  const idleMs =
    options.streamIdleTimeoutMs !== undefined && Number.isFinite(options.streamIdleTimeoutMs) && options.streamIdleTimeoutMs > 0
      ? options.streamIdleTimeoutMs
      : DEFAULT_STREAM_IDLE_TIMEOUT_MS;
  const logger = (options.logger ?? silentLogger).child({ provider: config.id });
  const agent = options.fetch
    ? undefined
    : new Agent({
        connect: { timeout: timeouts.connectMs },
        headersTimeout: timeouts.headersMs,
        bodyTimeout: timeouts.bodyMs,
        keepAliveTimeout: 30_000,
      });
  const fetchImpl =
    options.fetch ??
    // undici's fetch types differ from the DOM ones the SDK declares; the runtime objects are the same.
    ((url: unknown, init: unknown) => undiciFetch(url as string, { ...(init as object), dispatcher: agent } as Parameters<typeof undiciFetch>[1])) as unknown as typeof fetch;
  // Every option the SDK would otherwise read from process.env is given explicitly (no OPENAI_* leaks to a
  // local or custom server).
  const client = new OpenAI({
    apiKey: config.apiKey ?? 'no-key',
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    baseURL: config.baseUrl,
    maxRetries: 0,
    // The SDK's timer covers connect + wait for headers with a precise clock; undici's own checks are coarse.
    timeout: timeouts.connectMs + timeouts.headersMs,
    fetch: fetchImpl,
    logLevel: 'off',
  });
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
            return await attemptOnce({ client, body, config: remote, signal: request.signal, emit, idleMs });
          } catch (error) {
            if (request.signal?.aborted) throw new AbortedError();
            const failure = toCallError(error, { config: remote, delivered: state.delivered });
            if (failure instanceof CallError && failure.code === 'bad_request' && body.stream_options && /stream_options|include_usage/i.test(failure.message)) {
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
          classify: (error) =>
            error instanceof CallError && error.retryable
              ? { retry: true, ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}) }
              : { retry: false },
          onRetry: ({ attempt, delayMs, error }) => {
            if (error instanceof CallError && error.code === 'stalled' && state.delivered) {
              // The partial reply is void: the retry streams a whole new one.
              state.delivered = false;
              request.onDelta?.({ kind: 'restart' });
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
    return toResponse(reply, request, remote, price, body);
  }

  return {
    id: config.id,
    ...(contextWindow !== undefined ? { contextWindow } : {}),
    complete,
    close: async () => {
      // Idempotent: the CLI may close on both /quit and shutdown.
      if (agent && !agent.closed && !agent.destroyed) await agent.close();
    },
  };
}

interface AttemptInput {
  client: OpenAI;
  body: ReturnType<typeof toChatRequest>;
  config: RemoteModelConfig;
  signal: AbortSignal | undefined;
  emit: (delta: StreamDelta) => void;
  idleMs: number;
}

async function attemptOnce(input: AttemptInput): Promise<MappedReply> {
  const { client, body, config, signal, emit } = input;
  const where = `${config.id} at ${displayUrl(config.baseUrl)}`;
  // Our own controller, so the idle watchdog can end this attempt's request without touching the turn's signal.
  const attempt = new AbortController();
  const requestSignal = signal ? AbortSignal.any([signal, attempt.signal]) : attempt.signal;
  const response = await client.chat.completions.create(body, { signal: requestSignal }).asResponse();
  const contentType = response.headers.get('content-type') ?? '';
  let stream = response.body as unknown as AsyncIterable<Uint8Array> | Iterable<Uint8Array> | null;
  if (!contentType.includes('text/event-stream')) {
    // A server that ignored `stream: true` and answered in one piece, or sent SSE under another content type.
    const text = await response.text();
    if (contentType.includes('json') || !/^data:/m.test(text)) return readWholeReply(text, response.headers, input);
    stream = [new TextEncoder().encode(text)];
  }
  if (!stream) throw new CallError('bad_response', `${where} sent an empty response`, { retryable: true });
  const accumulator = new StreamAccumulator();
  let sawDone = false;
  try {
    for await (const data of readSseData(withIdleTimeout(stream, { idleMs: input.idleMs, onIdle: () => attempt.abort() }))) {
      if (data.trim() === '[DONE]') {
        sawDone = true;
        break;
      }
      const chunk = parseJson(data);
      if (chunk === undefined) throw badResponse(where, data, config, !accumulator.hasOutput);
      if (isErrorBody(chunk)) throw new OpenAI.APIError(undefined, chunk.error, undefined, response.headers);
      for (const delta of accumulator.push(chunk)) emit(delta);
    }
  } catch (error) {
    if (!(error instanceof StreamStalled) || signal?.aborted) throw error;
    const seconds = Math.round(error.idleMs / 100) / 10;
    throw new CallError('stalled', `the reply from ${where} stalled: no data for ${seconds} s mid-stream (streamIdleTimeoutMs)`, { retryable: true });
  }
  if (signal?.aborted) throw new AbortedError();
  const reply = accumulator.finish();
  if (!sawDone && !reply.finished) {
    // The connection closed cleanly but the reply never finished: a cut stream, not an answer.
    throw new CallError('stream_interrupted', `the reply from ${where} stopped mid-stream (no finish_reason, no [DONE])`, {
      retryable: !accumulator.hasOutput,
    });
  }
  return reply;
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
  if (out instanceof Error && config.apiKey && out.message.includes(config.apiKey)) out.message = redact(out.message, { config });
  return out;
}

function readWholeReply(text: string, headers: Headers, input: AttemptInput): MappedReply {
  const where = `${input.config.id} at ${displayUrl(input.config.baseUrl)}`;
  const parsed = parseJson(text);
  if (parsed === undefined) throw badResponse(where, text, input.config, true);
  if (isErrorBody(parsed)) throw new OpenAI.APIError(undefined, parsed.error, undefined, headers);
  let reply: MappedReply;
  try {
    reply = fromChatResponse(parsed);
  } catch {
    throw new CallError('bad_response', `${where} sent JSON that is not a chat completion: ${JSON.stringify(redact(text.slice(0, 120), { config: input.config }))}`, { retryable: true });
  }
  if (reply.reasoning) input.emit({ kind: 'reasoning', text: reply.reasoning });
  if (reply.content) input.emit({ kind: 'text', text: reply.content });
  return reply;
}

function toResponse(
  reply: MappedReply,
  request: CompletionRequest,
  config: RemoteModelConfig,
  price: ReturnType<typeof priceFor>,
  body: ReturnType<typeof toChatRequest>,
): CompletionResponse {
  const think = splitThinkTags(reply.content);
  let content = think.content;
  const reasoning = [reply.reasoning, think.reasoning].filter(Boolean).join('\n') || undefined;
  let toolCalls = finaliseToolCalls(reply.toolCalls);
  if (toolCalls.length === 0 && content.trim() !== '' && request.tools.length > 0) {
    const extracted = extractTextToolCalls(content, request.tools.map((tool) => tool.name));
    if (extracted.toolCalls.length > 0) {
      toolCalls = finaliseToolCalls(extracted.toolCalls);
      content = extracted.content;
    }
  }
  const estimated = reply.usage === undefined;
  const tokens = reply.usage ?? {
    promptTokens: estimatePromptTokens(body),
    completionTokens: Math.ceil((reply.content.length + (reply.reasoning?.length ?? 0) + reply.toolCalls.reduce((n, c) => n + c.name.length + c.arguments.length, 0)) / 4),
    cachedTokens: 0,
  };
  const usage: ProviderUsage = {
    promptTokens: tokens.promptTokens,
    completionTokens: tokens.completionTokens,
    cachedTokens: tokens.cachedTokens,
    ...(tokens.reasoningTokens !== undefined ? { reasoningTokens: tokens.reasoningTokens } : {}),
    costUsd: costUsd(tokens, price.price),
    estimated,
    priced: price.priced,
  };
  const finishReason = toolCalls.length > 0 && (reply.finishReason === 'stop' || reply.finishReason === 'other') ? 'tool_calls' : reply.finishReason;
  return {
    message: { content, toolCalls, ...(reasoning ? { reasoning } : {}) },
    usage,
    finishReason,
    model: reply.model ?? config.model,
  };
}

function badResponse(where: string, text: string, config: RemoteModelConfig, retryable: boolean): CallError {
  const snippet = redact(text.length > 120 ? `${text.slice(0, 120)}…` : text, { config });
  return new CallError('bad_response', `${where} sent data that is not valid JSON: ${JSON.stringify(snippet)}`, { retryable });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isErrorBody(value: unknown): value is { error: Record<string, unknown> } {
  return typeof value === 'object' && value !== null && 'error' in value && (value as { error: unknown }).error !== null && (value as { error: unknown }).error !== undefined;
}
