// Game errors as SpaceMolt writes them: `Error: code: message` text, or JSON text — the real server's
// {"code":"action_pending","message":"…","wait_seconds":12} (no `error` key), and {"error":"rate_limited",…,
// "retry_after":12} or {"error":{"code":…}} — with waits sometimes only in words ("try again in 12 seconds").
import { wordedRefusal, type RefusalSituation } from './refusals.js';

export interface GameError {
  code: string;
  message: string;
  retry_after?: number;
}

const CODE = /^[a-z][a-z0-9_]{1,40}$/i;

function parseJson(text: string): Record<string, unknown> | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Seconds in words: "try again in 12 seconds", "retry in 2 minutes", "retry after 5s". */
export function waitInWords(text: string): number | undefined {
  const match =
    /(?:try again|retry)(?: in| after)\s+(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)?\b/i.exec(
      text,
    );
  if (!match?.[1]) return undefined;
  const value = Number(match[1]);
  const unit = (match[2] ?? 's').toLowerCase();
  if (unit.startsWith('ms') || unit.startsWith('milli')) return value / 1000;
  if (unit.startsWith('m')) return value * 60;
  return value;
}

function numberField(record: Record<string, unknown>, ...names: string[]): number | undefined {
  for (const name of names) {
    const value = record[name];
    if (typeof value === 'number' && Number.isFinite(value)) return Math.max(0, value);
    if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
      return Math.max(0, Number(value));
  }
  return undefined;
}

// SpaceMolt's session errors come as {"code":"session_invalid","message":"…"}: a code beside a message and nothing
// but wait fields, unlike an answer that merely has a `code` among its data.
const ENVELOPE_KEYS = new Set(['code', 'message', 'retry_after', 'wait_seconds', 'details']);

function isErrorEnvelope(json: Record<string, unknown>): boolean {
  return typeof json.message === 'string' && Object.keys(json).every((key) => ENVELOPE_KEYS.has(key));
}

/**
 * The code a JSON error states: `{"error":"code"}`, `{"error":{"code"}}`, `{"error":…, "code"}`, or the real server's
 * bare `{"code","message"}` (a `code` among other data is not taken for an error).
 */
function jsonCode(json: Record<string, unknown>, nested: Record<string, unknown> | undefined): unknown {
  const error = json.error;
  if (typeof error === 'string') return error;
  if (typeof nested?.code === 'string') return nested.code;
  if (error !== undefined) return json.code;
  return isErrorEnvelope(json) ? json.code : undefined;
}

function fromJson(json: Record<string, unknown>): GameError | undefined {
  const error = json.error;
  const nested =
    error && typeof error === 'object' && !Array.isArray(error) ? (error as Record<string, unknown>) : undefined;
  // `{"error":{"code":0,"message":"empty_entry"}}` (legacy /mcp, Zoea-Nova's report): a numeric code, the word in
  // the message.
  const numbered = typeof nested?.code === 'number' && typeof nested.message === 'string' && CODE.test(nested.message);
  const code = numbered ? nested.message : jsonCode(json, nested);
  if (typeof code !== 'string' || !CODE.test(code)) return undefined;
  const messageSource = nested?.message ?? json.message;
  const message = typeof messageSource === 'string' ? messageSource : '';
  const out: GameError = { code: code.toLowerCase(), message };
  const wait =
    numberField(nested ?? {}, 'retry_after', 'wait_seconds') ??
    numberField(json, 'retry_after', 'wait_seconds') ??
    waitInWords(message);
  if (wait !== undefined) out.retry_after = wait;
  return out;
}

/** The error a result's text states, or undefined when it states none. Never throws. */
export function readError(text: string): GameError | undefined {
  const json = parseJson(text);
  if (json) return fromJson(json);
  const match =
    /^\s*Error:\s*(?:([a-z][a-z0-9_]{1,40}):\s*)?([\s\S]*)$/i.exec(text) ??
    // Some answers drop the `Error:` prefix: `not_docked: You must be docked at a station…`.
    /^\s*([a-z][a-z0-9]*_[a-z0-9_]{1,40}):\s+([\s\S]*)$/.exec(text);
  if (!match) return undefined;
  const message = (match[2] ?? '').trim();
  const out: GameError = { code: (match[1] ?? 'error').toLowerCase(), message };
  const wait = waitInWords(message);
  if (wait !== undefined) out.retry_after = wait;
  return out;
}

/**
 * A refusal as the game stated it, whatever its form: a code (`Error: code: …`, JSON), else the code its words name
 * (refusals.ts), else `error` with the words; with the situation the words state. For a result the game marked failed.
 */
export function readRefusal(text: string): GameError & { situation?: RefusalSituation } {
  const stated = readError(text);
  const worded = wordedRefusal(stated?.message || text);
  const message = stated?.message ?? text.trim().slice(0, 500);
  const code = stated && stated.code !== 'error' ? stated.code : (worded?.code ?? 'error');
  const out: GameError & { situation?: RefusalSituation } = { code, message };
  const wait = stated?.retry_after ?? worded?.retryAfter;
  if (wait !== undefined) out.retry_after = wait;
  if (worded?.situation) out.situation = worded.situation;
  return out;
}
