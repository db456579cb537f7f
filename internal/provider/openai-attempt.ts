// One attempt at a chat completion: the openai SDK's streaming request (`chat.completions.create` with
// `stream: true`) and its `Stream` of chunks, read to the end under the idle watchdog into a StreamAccumulator, each
// delta handed on as it arrives. The SDK does the SSE decoding, `[DONE]` and error objects inside the stream (an
// APIError); this module adds what only it can see: a stall, a stream that ends before the reply did, data that
// does not parse, and servers that answer a streaming request with one plain JSON body. Everything else is left
// raw for `toCallError`.
import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { AbortedError, MODEL_REPLY_READ_MAX_CHARS, clip, type StreamDelta } from '../shared/index.js';
import type { RemoteModelConfig } from './models.js';
import { CallError, displayUrl, redact } from './openai-errors.js';
import { fromChatResponse, StreamAccumulator, type MappedReply } from './openai-mapping.js';
import type { OpenAISdk } from './openai-sdk.js';
import { StreamStalled, withIdleTimeout } from './stream-idle.js';

export interface AttemptInput {
  /** The loaded SDK (its Stream reads SSE sent under another content type; its APIError carries an error body). */
  sdk: OpenAISdk;
  client: OpenAI;
  body: ChatCompletionCreateParamsStreaming;
  config: RemoteModelConfig;
  /** The turn's signal. */
  signal: AbortSignal | undefined;
  emit: (delta: StreamDelta) => void;
  /** Longest silence between two chunks before the attempt is given up as stalled. */
  idleMs: number;
}

/** One HTTP request read to the end. Throws CallError for stalls, cut streams and bad data; SDK errors as they are. */
export async function attemptOnce(input: AttemptInput): Promise<MappedReply> {
  const { sdk, client, body, config, signal, emit } = input;
  const where = whereOf(config);
  // Our own controller, so the idle watchdog can end this attempt's request without touching the turn's signal.
  const attempt = new AbortController();
  const requestSignal = signal ? AbortSignal.any([signal, attempt.signal]) : attempt.signal;
  const { data, response } = await client.chat.completions.create(body, { signal: requestSignal }).withResponse();
  let stream: AsyncIterable<unknown> = data;
  const contentType = response.headers.get('content-type') ?? '';
  if (!contentType.includes('text/event-stream')) {
    // A server that ignored `stream: true` and answered in one piece (which the SDK would read as an empty stream),
    // or sent SSE under another content type (which the SDK reads from the text once we know it is SSE).
    const text = await response.text();
    if (contentType.includes('json') || !/^data:/m.test(text)) return readWholeReply(text, response.headers, input);
    stream = sdk.Stream.fromSSEResponse(new Response(text, { headers: response.headers }), attempt, client);
  } else if (!response.body) {
    throw new CallError('bad_response', `${where} sent an empty response`, { retryable: true });
  }
  const accumulator = new StreamAccumulator();
  try {
    const chunks = notJsonAsCallError(stream, { config, retryable: () => !accumulator.hasOutput });
    for await (const chunk of withIdleTimeout(chunks, { idleMs: input.idleMs, onIdle: () => attempt.abort() })) {
      for (const delta of accumulator.push(chunk)) emit(delta);
      if (accumulator.chars > MODEL_REPLY_READ_MAX_CHARS) {
        attempt.abort();
        throw new CallError(
          'bad_response',
          `the reply from ${where} ran past ${MODEL_REPLY_READ_MAX_CHARS.toLocaleString('en-US')} characters without ending; stopped reading it`,
          { retryable: false },
        );
      }
    }
  } catch (error) {
    if (!(error instanceof StreamStalled) || signal?.aborted) throw error;
    const seconds = Math.round(error.idleMs / 100) / 10;
    throw new CallError(
      'stalled',
      `the reply from ${where} stalled: no data for ${seconds} s mid-stream (streamIdleTimeoutMs)`,
      { retryable: true },
    );
  }
  // The SDK's stream ends quietly when the request is aborted: the turn's abort is told apart here.
  if (signal?.aborted) throw new AbortedError();
  const reply = accumulator.finish();
  // The SDK consumes `[DONE]` without saying whether it came, so a finished reply is one with a finish_reason or
  // the usage chunk (which servers send last). Without either, the connection closed cleanly mid-reply: a cut
  // stream, not an answer.
  if (!reply.finished && reply.usage === undefined) {
    throw new CallError(
      'stream_interrupted',
      `the reply from ${where} stopped mid-stream (the connection closed before a finish_reason)`,
      {
        retryable: !accumulator.hasOutput,
      },
    );
  }
  return reply;
}

/**
 * The SDK's stream throws the SyntaxError of its JSON.parse when an event's data does not parse (after logging it
 * through the client's logger, which is off). Only errors of the source are mapped: a consumer's own errors are not
 * thrown into this generator.
 */
async function* notJsonAsCallError(
  source: AsyncIterable<unknown>,
  options: { config: RemoteModelConfig; retryable: () => boolean },
): AsyncGenerator<unknown> {
  try {
    yield* source;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    throw new CallError(
      'bad_response',
      `${whereOf(options.config)} sent data that is not valid JSON (${clip(redact(error.message, options), SHOWN_CHARS)})`,
      {
        retryable: options.retryable(),
      },
    );
  }
}

function readWholeReply(text: string, headers: Headers, input: AttemptInput): MappedReply {
  const where = whereOf(input.config);
  const parsed = parseJson(text);
  if (parsed === undefined) {
    throw new CallError(
      'bad_response',
      `${where} sent data that is not valid JSON: ${JSON.stringify(clip(redact(text, input), SHOWN_CHARS))}`,
      { retryable: true },
    );
  }
  if (isErrorBody(parsed)) throw new input.sdk.APIError(undefined, parsed.error, undefined, headers);
  let reply: MappedReply;
  try {
    reply = fromChatResponse(parsed);
  } catch {
    throw new CallError(
      'bad_response',
      `${where} sent JSON that is not a chat completion: ${JSON.stringify(redact(text.slice(0, 120), input))}`,
      { retryable: true },
    );
  }
  if (reply.reasoning) input.emit({ type: 'reasoning', text: reply.reasoning });
  if (reply.content) input.emit({ type: 'text', text: reply.content });
  return reply;
}

function whereOf(config: RemoteModelConfig): string {
  return `${config.id} at ${displayUrl(config.baseUrl)}`;
}

/** How much of a bad reply an error shows: 120 characters and the ellipsis. */
const SHOWN_CHARS = 121;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isErrorBody(value: unknown): value is { error: Record<string, unknown> } {
  return (
    typeof value === 'object' &&
    value !== null &&
    'error' in value &&
    (value as { error: unknown }).error !== null &&
    (value as { error: unknown }).error !== undefined
  );
}
