// Turns whatever went wrong in one model call (SDK APIError, undici network/timeout errors, a stream cut or
// garbage on the wire) into a SkipperError with a code, a message that says what to do, and whether the retry
// layer may try again. Messages never contain the API key (they are passed through `redact`).
import type { APIError } from 'openai';
import { AbortedError, clip, FatalError, SkipperError, type SkipperErrorCode } from '../shared/index.js';
import { isLoopbackUrl, localServerHint, type RemoteModelConfig } from './models.js';
import { loadedOpenAISdk } from './openai-sdk.js';
import { parseRetryAfter } from './retry.js';

/** A call failure as the retry layer sees it. */
export class CallError extends SkipperError {
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly status: number | undefined;
  constructor(
    code: SkipperErrorCode,
    message: string,
    options: { retryable: boolean; retryAfterMs?: number; status?: number; cause?: unknown },
  ) {
    super(code, message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CallError';
    this.retryable = options.retryable;
    this.retryAfterMs = options.retryAfterMs;
    this.status = options.status;
  }
}

const CONTEXT_PATTERN =
  /context[ _-]?(length|window|size)|maximum context|too many tokens|prompt is too long|reduce the length|exceeds? the (model's )?(maximum|max|context)|input is too long|token limit/i;

export function isContextLengthMessage(code: unknown, message: string): boolean {
  return code === 'context_length_exceeded' || CONTEXT_PATTERN.test(message);
}

export interface ErrorContext {
  config: RemoteModelConfig;
  /** Whether any delta already reached the UI during this call (then a cut stream is not retried). */
  delivered: boolean;
}

/** Classifies one attempt's failure. AbortedError and FatalError pass through unchanged. */
export function toCallError(error: unknown, context: ErrorContext): Error {
  if (error instanceof AbortedError || error instanceof FatalError || error instanceof CallError) return error;
  const where = `${context.config.id} at ${displayUrl(context.config.baseUrl)}`;
  // The SDK's own errors, if it has been loaded (before, nothing can have thrown one).
  const sdk = loadedOpenAISdk();
  if (!sdk) return fromNetwork(error, context, where);
  if (error instanceof sdk.APIUserAbortError) return new AbortedError();
  if (error instanceof sdk.APIError && typeof error.status === 'number') return fromStatus(error, context, where);
  if (error instanceof sdk.APIConnectionTimeoutError) {
    return new CallError('timeout', `no answer from ${where} in time (request timed out)`, { retryable: true });
  }
  if (error instanceof sdk.APIError && error.status === undefined && error.error !== undefined && !error.cause) {
    // An error object sent inside the SSE stream.
    return fromStreamError(error.error, context, where);
  }
  return fromNetwork(error, context, where);
}

/** A failure below HTTP (refused, unresolved, timed out, cut off), told by the error codes in its cause chain. */
function fromNetwork(error: unknown, context: ErrorContext, where: string): Error {
  const codes = causeCodes(error);
  if (codes.includes('ECONNREFUSED') && (context.config.local || isLoopbackUrl(context.config.baseUrl))) {
    const { label, startHint } = localServerHint(context.config);
    const hint = startHint ? ` — ${startHint.replace('MODEL', context.config.model)}` : ' — is the server running?';
    return new FatalError(
      'unreachable',
      redact(`cannot reach ${label} at ${displayUrl(context.config.baseUrl)}${hint}`, context),
      { cause: error },
    );
  }
  if (codes.includes('ENOTFOUND')) {
    const host = safeHost(context.config.baseUrl);
    return new FatalError(
      'unreachable',
      `cannot resolve ${host} (from ${displayUrl(context.config.baseUrl)}) — check --base-url and your network`,
      { cause: error },
    );
  }
  const timeout = codes.find((code) => /TIMEOUT/i.test(code));
  if (timeout) {
    const phase = timeout.includes('HEADERS')
      ? 'waiting for the first byte'
      : timeout.includes('BODY')
        ? 'between stream chunks'
        : 'connecting';
    return new CallError('timeout', `${where} timed out ${phase} (${timeout})`, {
      retryable: !(timeout.includes('BODY') && context.delivered),
    });
  }
  const network = codes.find((code) => /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(code));
  if (network || isFetchFailure(error)) {
    if (context.delivered) {
      return new CallError(
        'stream_interrupted',
        `the reply from ${where} was cut off mid-stream (${network ?? 'connection lost'}); not retried because part of it was already shown`,
        { retryable: false },
      );
    }
    return new CallError('network', `network error talking to ${where} (${network ?? messageOf(error)})`, {
      retryable: true,
    });
  }
  return new CallError('provider_error', redact(`unexpected error from ${where}: ${messageOf(error)}`, context), {
    retryable: false,
  });
}

function fromStatus(error: APIError, context: ErrorContext, where: string): Error {
  const status = error.status as number;
  const body = error.error as { message?: unknown; code?: unknown; type?: unknown } | undefined;
  const serverMessage = clip(
    redact(typeof body?.message === 'string' ? body.message : stripStatus(error.message), context),
    SHOWN_CHARS,
  );
  const code = body?.code ?? error.code;
  const headers = error.headers;
  const retryAfterMs = retryAfterFrom(headers);
  const detail = serverMessage ? `: ${serverMessage}` : '';
  const refusal = refusalFor({ status, code, serverMessage, detail, where, context });
  if (refusal) return refusal;
  if (status === 429) {
    return new CallError('rate_limited', `${where} is rate limiting us (HTTP 429)${detail}`, {
      retryable: true,
      status,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }
  if (status >= 500 || status === 408 || status === 409) {
    return new CallError('server_error', `${where} failed with HTTP ${status}${detail}`, {
      retryable: true,
      status,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }
  return new CallError('bad_request', `${where} rejected the request (HTTP ${status})${detail}`, {
    retryable: false,
    status,
  });
}

/** An HTTP status the same request would meet again: a bad key, a conversation too long, a model without tools or not
 * served, an account out of quota. Never retried. */
function refusalFor(reply: {
  status: number;
  code: unknown;
  serverMessage: string;
  detail: string;
  where: string;
  context: ErrorContext;
}): Error | undefined {
  const { status, code, serverMessage, detail, where, context } = reply;
  if (status === 401 || status === 403) {
    const key = context.config.apiKeyEnv;
    const what = key
      ? `check ${key} (set it to a valid key for ${context.config.provider})`
      : 'the endpoint needs a key: pass --api-key-env NAME';
    return new FatalError('auth', `${where} refused the request (HTTP ${status})${detail} — ${what}`);
  }
  if (
    (status === 400 || status === 413 || status === 422) &&
    (status === 413 || isContextLengthMessage(code, serverMessage))
  ) {
    return new CallError('context_length', `the conversation is too long for ${context.config.id}${detail}`, {
      retryable: false,
      status,
    });
  }
  if (
    status === 400 &&
    /does not support tools|tools? (are|is) not supported|tool[ _]?(use|calling) is not supported/i.test(serverMessage)
  ) {
    return new FatalError(
      'tools_unsupported',
      `${context.config.id} cannot call tools${detail} — pick a model with tool (function) calling support`,
    );
  }
  if (status === 404) {
    const pull =
      context.config.provider === 'ollama' ? ` or fetch it with \`ollama pull ${context.config.model}\`` : '';
    return new FatalError(
      'model_not_found',
      `${where} answered 404${detail} — check the model name "${context.config.model}" (GET ${displayUrl(context.config.baseUrl).replace(/\/$/, '')}/models lists what it serves)${pull} and the base URL`,
    );
  }
  if (
    status === 429 &&
    (code === 'insufficient_quota' || /insufficient[_ ]quota|exceeded your current quota/i.test(serverMessage))
  ) {
    return new FatalError(
      'quota',
      `${where} says the account is out of quota (HTTP 429)${detail} — check the plan and billing for ${context.config.apiKeyEnv ?? 'this key'}`,
    );
  }
  return undefined;
}

function fromStreamError(raw: unknown, context: ErrorContext, where: string): Error {
  const body = (typeof raw === 'object' && raw !== null ? raw : { message: String(raw) }) as {
    message?: unknown;
    code?: unknown;
    status?: unknown;
  };
  const message = clip(
    redact(typeof body.message === 'string' ? body.message : JSON.stringify(raw), context),
    SHOWN_CHARS,
  );
  if (isContextLengthMessage(body.code, message)) {
    return new CallError('context_length', `the conversation is too long for ${context.config.id}: ${message}`, {
      retryable: false,
    });
  }
  const status = typeof body.code === 'number' ? body.code : typeof body.status === 'number' ? body.status : undefined;
  if (status === 401 || status === 403) return new FatalError('auth', `${where} refused the request: ${message}`);
  return new CallError('server_error', `${where} reported an error mid-stream: ${message}`, {
    retryable: !context.delivered,
  });
}

export function retryAfterFrom(headers: Headers | undefined): number | undefined {
  if (!headers || typeof headers.get !== 'function') return undefined;
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') !== null && Number.isFinite(ms) && ms >= 0) return ms;
  return parseRetryAfter(headers.get('retry-after'));
}

/** Removes the API key (and a Bearer header echo) from any text that may reach a person or a log. */
/** A URL as people may see it: no credentials in it (user:password@, ?key=…), which belong to no message or log. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//').replace(/\?.*$/, '');
  }
}

export function redact(text: string, context: { config: Pick<RemoteModelConfig, 'apiKey'> }): string {
  let out = text;
  const key = context.config.apiKey;
  if (key && key.length >= 4) out = out.split(key).join('[redacted]');
  return out.replace(/Bearer\s+[A-Za-z0-9._~+/=-]{8,}/g, 'Bearer [redacted]');
}

/** How much of a server's message an error shows: 400 characters and the ellipsis. */
const SHOWN_CHARS = 401;

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function causeCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    const nested = (current as { errors?: unknown }).errors; // AggregateError from happy-eyeballs connects
    if (Array.isArray(nested)) codes.push(...nested.flatMap((inner) => causeCodes(inner)));
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

function isFetchFailure(error: unknown): boolean {
  const text = messageOf(error);
  return /fetch failed|terminated|socket|other side closed|connection error/i.test(text);
}

function stripStatus(message: string): string {
  return message.replace(/^\d{3}\s+/, '').replace(/^status code \(no body\)$/, '');
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
