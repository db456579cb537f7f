// A fetch for game calls that costs less CPU: the MCP client sends each game call as a POST through `fetch`, and
// Node's built-in fetch spent ~1.5 ms of CPU per call (web streams both ways, a body stream for a few hundred
// bytes of JSON) where undici's request API spends ~0.8 ms (measured: 2,000 get_status calls to `skipper serve`). A
// fleet makes a dozen calls a second per captain, so that difference is a large part of its CPU per action.
// POSTs and DELETEs go through undici's request with one keep-alive pool; a JSON answer is read whole, an event
// stream is handed on as it comes. GETs (the standing event stream) and redirects are left to the built-in fetch.
// Failures look like fetch's (a TypeError "fetch failed" with the network error as its cause; an abort throws the
// signal's reason), so the game layer classifies them the same way. `leanPost` is the game calls' short path (see
// lean-transport.ts): a 200 JSON answer as its text, with no Headers or Response made for it. undici is imported at
// the first call, so a command that never plays over HTTP does not load it.
import { Readable } from 'node:stream';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Agent, Dispatcher } from 'undici';
import { cutLongStrings, markCut, readCut } from './long-strings.js';

type Undici = typeof import('undici');
let undici: Undici | undefined;
let pool: Agent | undefined;

/** One pool for the process: every captain of a fleet reuses the same keep-alive sockets per game host. */
function dispatcher(lib: Undici): Agent {
  pool ??= new lib.Agent({ keepAliveTimeout: 30_000, connections: 256 });
  return pool;
}

function headerRecord(headers: ConstructorParameters<typeof Headers>[0]): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(headers).forEach((value, key) => (out[key] = value));
  return out;
}

function responseHeaders(headers: Dispatcher.ResponseData['headers']): Headers {
  const out = new Headers();
  for (const [key, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) out.append(key, one);
  }
  return out;
}

function abortReason(signal: AbortSignal | null | undefined): unknown {
  return signal?.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** What fetch throws where undici failed: the signal's reason after an abort, else "fetch failed" with the cause. */
function fetchFailure(error: unknown, signal: AbortSignal | null | undefined): unknown {
  return signal?.aborted ? abortReason(signal) : new TypeError('fetch failed', { cause: error });
}

/** The body as fetch would hold it: none for statuses that cannot carry one, a stream for an event stream. */
async function bodyOf(
  response: Dispatcher.ResponseData,
  headers: Headers,
): Promise<ConstructorParameters<typeof Response>[0]> {
  if (response.statusCode === 204 || response.statusCode === 304) {
    await response.body.dump();
    return null;
  }
  // A game's answer is read with its long strings cut as they arrive (long-strings.ts): never whole in memory.
  if (headers.get('content-type')?.includes('text/event-stream'))
    return cutLongStrings(Readable.toWeb(response.body) as unknown as ReadableStream<Uint8Array>);
  return await readCut(response.body);
}

/** undici's request with fetch's failures: a network error is a TypeError "fetch failed" (cause kept), an abort throws
 * the signal's reason. */
async function requestData(
  url: string | URL,
  options: { method: string; headers: Record<string, string>; body: string | Buffer | null; signal?: AbortSignal },
): Promise<Dispatcher.ResponseData> {
  const lib = undici ?? (undici = await import('undici'));
  try {
    return await lib.request(url, {
      method: options.method as Dispatcher.HttpMethod,
      headers: options.headers,
      body: options.body,
      dispatcher: dispatcher(lib),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    throw fetchFailure(error, options.signal);
  }
}

/** A redirect, followed by the built-in fetch as a browser would (rare for a game server); undefined for any other
 * answer. */
async function followRedirect(
  url: string | URL,
  init: RequestInit,
  response: Dispatcher.ResponseData,
): Promise<Response | undefined> {
  if (response.statusCode < 300 || response.statusCode >= 400 || !response.headers.location) return undefined;
  await response.body.dump();
  return fetch(url, init);
}

/** The answer as fetch gives it: redirects followed by the built-in fetch, an event stream as it comes. */
async function asResponse(
  url: string | URL,
  init: RequestInit,
  response: Dispatcher.ResponseData,
  signal: AbortSignal | undefined,
): Promise<Response> {
  const redirected = await followRedirect(url, init, response);
  if (redirected) return redirected;
  const headers = responseHeaders(response.headers);
  try {
    // Cut as it was read (bodyOf): the transport's cuttingFetch hands it on as it is.
    return markCut(new Response(await bodyOf(response, headers), { status: response.statusCode, headers }));
  } catch (error) {
    throw fetchFailure(error, signal);
  }
}

export const leanFetch: FetchLike = async (url, init = {}) => {
  const method = (init.method ?? 'GET').toUpperCase();
  if (method === 'GET') return fetch(url, init);
  const signal = init.signal ?? undefined;
  const response = await requestData(url, {
    method,
    headers: headerRecord(init.headers),
    body: (init.body as string | Buffer | null | undefined) ?? null,
    ...(signal ? { signal } : {}),
  });
  return asResponse(url, init, response, signal);
};

/** A POST's answer: a 200 JSON one as its text, read whole; anything else as fetch would give it. */
export interface LeanAnswer {
  status: number;
  /** A response header (lower-case name), its first value; null when absent. */
  header(name: string): string | null;
  /** The body of a 200 `application/json` answer. */
  json?: string;
  /** Any other answer (an event stream, 202, an error status, a redirect), for a reader that expects fetch's. */
  response?: Response;
}

/** The media type without its parameters, lower-cased (`application/json; charset=utf-8` → `application/json`). */
export function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/**
 * POSTs a body with plain header records and no Headers or Response objects on the usual path: a game call's answer
 * is a few hundred bytes of JSON, and fetch's wrappers around it cost more CPU than the request itself.
 */
export async function leanPost(
  url: string | URL,
  init: { headers: Record<string, string>; body: string; signal?: AbortSignal },
): Promise<LeanAnswer> {
  const response = await requestData(url, { method: 'POST', ...init });
  const header = (name: string): string | null => {
    const value = response.headers[name];
    return (Array.isArray(value) ? value[0] : value) ?? null;
  };
  if (response.statusCode === 200 && mediaType(header('content-type')) === 'application/json') {
    try {
      return { status: 200, header, json: (await readCut(response.body)).toString('utf8') };
    } catch (error) {
      throw fetchFailure(error, init.signal);
    }
  }
  const fetchInit: RequestInit = { method: 'POST', headers: init.headers, body: init.body };
  if (init.signal) fetchInit.signal = init.signal;
  return { status: response.statusCode, header, response: await asResponse(url, fetchInit, response, init.signal) };
}

/** What a JSON GET answers: enough of a Response for a reader of a small JSON document. */
export interface LeanJsonAnswer {
  ok: boolean;
  /** The HTTP status, where known (a busy server's 503 is worth asking again; a 404 is not). */
  status?: number;
  json(): Promise<unknown>;
}

/**
 * GETs a small JSON document (a game server's /health) through the same pool as the game calls: the built-in fetch
 * spent ~0.6 ms of CPU per read where this spends a fraction of it, and a fleet's tick clock reads once a tick. A
 * redirect is followed by the built-in fetch, as a browser would.
 */
export async function leanGetJson(url: string | URL, init: { signal?: AbortSignal } = {}): Promise<LeanJsonAnswer> {
  const response = await requestData(url, {
    method: 'GET',
    headers: { accept: 'application/json' },
    body: null,
    ...(init.signal ? { signal: init.signal } : {}),
  });
  const redirected = await followRedirect(url, init.signal ? { signal: init.signal } : {}, response);
  if (redirected) return redirected;
  const ok = response.statusCode >= 200 && response.statusCode < 300;
  if (!ok) await response.body.dump();
  return {
    ok,
    status: response.statusCode,
    json: async () => {
      try {
        return await response.body.json();
      } catch (error) {
        throw fetchFailure(error, init.signal);
      }
    },
  };
}
