// Pure mapping of MCP tool results and client errors to our ToolResult and to the connection's decisions
// (retry after a rate limit, reconnect after a lost session, report a timeout).
import {
  GAME_ANSWER_MAX_CHARS,
  describeContentPart,
  parseRetryAfter,
  truncateHeadTail,
  type ToolResult,
} from '../shared/index.js';
import { readContentParts } from './parts.js';
import { readError, waitInWords } from './text/errors.js';
import { wordedRefusal } from './text/refusals.js';

interface ContentPart {
  type?: string;
  text?: unknown;
}

/**
 * text = the text parts joined, then one line per part that is not text (`[image 32×32 png]`): OpenAI chat tool
 * messages carry text only, so that line is what a text-only model learns of an image or a resource; the parts
 * travel in `parts` (stored, shown; small images also reach vision models, in a user message after the results). The code from the text (`Error: code: message`, JSON `{"error": …}`, or known
 * wordings). structuredContent is not passed on: the profile reads data from the text, as on the real server.
 */
export function fromCallResult(raw: unknown): ToolResult {
  const result = (raw ?? {}) as { content?: unknown; isError?: unknown };
  const parts = Array.isArray(result.content) ? (result.content as ContentPart[]) : [];
  // A runaway answer (megabytes) is cut to head and tail before anything reads it (the profile, the error readers).
  const text = truncateHeadTail(
    parts
      .filter((part) => part && part.type === 'text' && typeof part.text === 'string')
      .map((part) => part.text as string)
      .join('\n'),
    GAME_ANSWER_MAX_CHARS,
  );
  const stated = readError(text);
  const other = readContentParts(parts);
  // SpaceMolt's errors are text: a result that states one is an error even if the flag was not set.
  const isError = result.isError === true || (stated !== undefined && /^\s*(error:|\{)/i.test(text));
  const described =
    other.length > 0 ? [text, ...other.map(describeContentPart)].filter((line) => line !== '').join('\n') : text;
  const out: ToolResult = { text: described, isError };
  const code = errorCode(stated, text, isError);
  if (code) out.code = code;
  if (other.length > 0) out.parts = other;
  return out;
}

// Text-only servers word some errors the connection acts on; read them as their codes (the game's other worded
// refusals are refusals.ts's).
const WORDED: Array<[RegExp, string]> = [
  [
    /\b(session (was |has been )?replaced|logged in (from )?(elsewhere|another)|another (session|client) logged in)\b/i,
    'session_replaced',
  ],
  [/\b(rate.?limit(ed)?|too many requests)\b/i, 'rate_limited'],
];

function errorCode(stated: { code: string } | undefined, text: string, isError: boolean): string | undefined {
  if (!isError) return undefined;
  // MCP SDK servers report their own checks (input validation: -32602) as an error result worded `MCP error N: …`.
  const rpc = /^\s*MCP error (-?\d+):/.exec(text)?.[1];
  if (rpc !== undefined && RPC_CODES[Number(rpc)]) return RPC_CODES[Number(rpc)];
  if (stated && stated.code !== 'error') return stated.code;
  const match = /^\s*([a-z][a-z0-9_]{2,40}):\s/i.exec(text);
  const code = match?.[1]?.toLowerCase();
  if (code && code !== 'error') return code;
  return WORDED.find(([pattern]) => pattern.test(text))?.[1] ?? wordedRefusal(text)?.code ?? stated?.code ?? code;
}

export function errorResult(code: string, text: string): ToolResult {
  return { text, isError: true, code };
}

/** Milliseconds to wait before retrying, when the result is a rate limit; undefined when it is not one. */
export function rateLimitWaitMs(result: ToolResult): number | undefined {
  const inWords = waitInWords(result.text);
  const isRateLimit = result.code === 'rate_limited' || (result.isError && inWords !== undefined);
  if (!isRateLimit) return undefined;
  const observed = (result.data as { error?: { retry_after?: unknown } } | undefined)?.error?.retry_after;
  const labelled = /(?:retry[_ -]?after|wait[_ -]?seconds)\D{0,4}(\d+(?:\.\d+)?)/i.exec(result.text)?.[1];
  // The first that says how long: what the profile observed, the JSON error, a labelled number, the words; else 1 s.
  const stated = [
    typeof observed === 'number' ? observed : undefined,
    readError(result.text)?.retry_after,
    labelled,
    inWords,
  ];
  for (const value of stated) {
    const ms = parseRetryAfter(value);
    if (ms !== undefined) return ms;
  }
  return 1000;
}

export type CallFailure =
  | { kind: 'session_lost'; reason: string; notSent?: boolean }
  | { kind: 'http_rate_limited'; reason: string }
  /** HTTP 503 with Retry-After: the game (often its auth) is down for a while; wait, then try again. */
  | { kind: 'http_unavailable'; reason: string; retryAfterMs: number }
  | { kind: 'timeout'; reason: string }
  | { kind: 'bad_response'; reason: string }
  /** The server answered with a JSON-RPC error (unknown tool, invalid params, internal error): a plain error result. */
  | { kind: 'rpc_error'; code: string; reason: string };

/** A failure that ends the call as a result, without retrying: a timeout, a JSON-RPC error, an unreadable answer. */
export function finalFailure(name: string, failure: CallFailure, timeoutMs: number): ToolResult | undefined {
  if (failure.kind === 'timeout')
    return errorResult('timeout', `timeout: the game did not answer ${name} within ${Math.round(timeoutMs / 1000)} s`);
  if (failure.kind === 'rpc_error') return errorResult(failure.code, `${failure.code}: ${failure.reason}`);
  if (failure.kind === 'bad_response') {
    return errorResult(
      'bad_response',
      `bad_response: the game's answer to ${name} could not be read (${failure.reason})`,
    );
  }
  return undefined;
}

const RPC_CODES: Record<number, string> = {
  [-32601]: 'unknown_tool',
  [-32602]: 'invalid_params',
  [-32603]: 'game_error',
  [-32600]: 'invalid_request',
};

/** Decides what a thrown client error means. Abort is handled by the caller before this. */
export function classifyCallError(error: unknown): CallFailure {
  const message = describeError(error);
  const code = (error as { code?: unknown } | undefined)?.code;
  const data = (error as { data?: unknown } | undefined)?.data;
  const name = error instanceof Error ? error.constructor.name : '';
  const failure =
    classifyHttpError({ name, code, message }) ??
    (typeof code === 'number' ? classifyRpcError({ name, code, data, message }) : undefined);
  if (failure) return failure;
  if (/session (expired|not found|terminated)|unknown session|connection closed|not connected/i.test(message)) {
    return { kind: 'session_lost', reason: message };
  }
  if (isNetworkError(error)) return { kind: 'session_lost', reason: message };
  return { kind: 'bad_response', reason: message };
}

/** The HTTP transport's own errors: a status code that says rate limit or a session the server no longer knows. */
function classifyHttpError(error: { name: string; code: unknown; message: string }): CallFailure | undefined {
  const { name, code, message } = error;
  if (name !== 'StreamableHTTPError' && name !== 'SseError') return undefined;
  if (code === 429) return { kind: 'http_rate_limited', reason: message };
  if (code === 404 || code === 410) return { kind: 'session_lost', reason: `HTTP ${code} (session unknown)` };
  if (code === 400 && /session/i.test(message)) return { kind: 'session_lost', reason: `HTTP 400 (${message})` };
  if (typeof code === 'number' && code >= 500) return { kind: 'session_lost', reason: `HTTP ${code}` };
  return undefined;
}

/** JSON-RPC error codes: the SDK's and SpaceMolt's session codes, then the standard ones the game answers with. */
function classifyRpcError(error: {
  name: string;
  code: number;
  data: unknown;
  message: string;
}): CallFailure | undefined {
  const { name, code, data, message } = error;
  if (code === -32001) {
    // The SDK uses -32001 for its own request timeout; SpaceMolt uses it for "session expired".
    if ((data as { timeout?: unknown } | undefined)?.timeout !== undefined || /timed out/i.test(message)) {
      return { kind: 'timeout', reason: message };
    }
    return { kind: 'session_lost', reason: message };
  }
  if (code === -32000) return { kind: 'session_lost', reason: message };
  const rpcCode = RPC_CODES[code];
  if (rpcCode && name === 'McpError') {
    return { kind: 'rpc_error', code: rpcCode, reason: message.replace(/^(?:MCP error -?\d+:\s*)+/, '') };
  }
  return undefined;
}

function isNetworkError(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (
      typeof code === 'string' &&
      /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|UND_ERR_|ENOTFOUND|EAI_AGAIN)/.test(code)
    ) {
      return true;
    }
    if (typeof message === 'string' && /fetch failed|socket hang up|other side closed|terminated/i.test(message)) {
      return true;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** One line, no stack: what people and logs see. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const causeText = cause instanceof Error && cause.message !== error.message ? ` (${cause.message})` : '';
    return `${error.message}${causeText}`.replace(/\s+/g, ' ').slice(0, 500);
  }
  return String(error).slice(0, 500);
}
