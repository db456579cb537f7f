// A real OpenAI-compatible HTTP server for tests (node:http on 127.0.0.1, port 0). It plays a script, records
// every request, injects faults, and rejects invalid transcripts like a strict real server.
//
//   const fake = await startFakeOpenAI({ script: [ { content: 'hi' }, { toolCalls: [{ name: 'mine', arguments: {} }] } ] });
//   createOpenAIProvider({ ..., baseUrl: fake.url })   // fake.url ends in /v1
//   fake.requests        every request: { method, path, headers (lower-case), body (parsed JSON or raw text) }
//   fake.chatRequests    only POST /v1/chat/completions
//   fake.invalid         validation failures (each answered with HTTP 400); tests assert it stays empty
//   fake.exhausted       true once a request came after the script ran out (answered HTTP 500
//                        "fake-openai: script exhausted") — assert it is false to fail loudly
//   fake.push(...steps)  append to the script; fake.remaining; await fake.close()
//   createOpenAIProvider(modelAt(fake), options)   the model config for it: openai/gpt-4o-mini, key sk-test
//
// Endpoints: POST /v1/chat/completions (plain JSON, or SSE when `stream: true`: chat.completion.chunk events,
// a usage chunk when stream_options.include_usage, then `data: [DONE]`), GET /v1/models.
// A script step is one of (each request consumes one step; requests rejected by validation or auth consume none):
//   FakeReply   { content?, reasoning?, reasoningField?, toolCalls?: [{ id?: string|null (null = omitted), name,
//                 arguments?: object|string }], finishReason?, usage?: {promptTokens,…} | false, chunkSize?,
//                 chunkDelayMs?, omitToolCallIndex? }
//   { fault: 'status', status, retryAfter?: string|number, body?: object|string }   any HTTP error
//   { fault: 'slow-first-byte', delayMs, reply?: FakeReply }        headers only after delayMs
//   { fault: 'cut-stream', afterChunks, reply?: FakeReply, mode?: 'destroy'|'end' }   socket destroyed (or the
//                 response ended cleanly without finish/[DONE]) after N SSE chunks
//   { fault: 'malformed-json' }                                      SSE data / JSON body that does not parse
//   { fault: 'reset' }                                               connection dropped before any response
//   { fault: 'stall', afterChunks, reply? }                          N SSE chunks, then silence (socket kept open)
//   { fault: 'stream-error', error: { message, code?, type? } }      an `error` object inside the SSE stream
//   { fault: 'tool-calls-as-text', toolCalls, style?: 'tag'|'fence'|'bare', prefix? }  calls written in content
//   (request: RecordedRequest, index) => step                        compute (and assert on) the reply
// Options: { script?, validate? (default true), apiKey? (then requests need `Authorization: Bearer apiKey`, else
// 401), models? (ids for /v1/models), ignoreStream? (answer plain JSON even to stream: true) }.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { RemoteModelConfig } from '../../internal/provider/index.js';
import { validateChatRequest } from './openai-validate.js';
import {
  completionObject,
  streamChunks,
  toolCallsAsText,
  type FakeReply,
  type FakeToolCall,
  type WireContext,
} from './openai-wire.js';

export type { FakeReply, FakeToolCall, FakeUsage } from './openai-wire.js';

export type FakeFault =
  | { fault: 'status'; status: number; retryAfter?: string | number; body?: unknown }
  | { fault: 'slow-first-byte'; delayMs: number; reply?: FakeReply }
  | { fault: 'cut-stream'; afterChunks: number; reply?: FakeReply; mode?: 'destroy' | 'end' }
  | { fault: 'malformed-json' }
  | { fault: 'reset' }
  | { fault: 'stall'; afterChunks: number; reply?: FakeReply }
  | { fault: 'stream-error'; error: { message: string; code?: string | number; type?: string } }
  | { fault: 'tool-calls-as-text'; toolCalls: FakeToolCall[]; style?: 'tag' | 'fence' | 'bare'; prefix?: string };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON, or the raw text when it did not parse. Tests read whatever shape they sent, so it is left untyped. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a wire body each test reads in its own shape
  body: any;
  receivedAt: number;
}

export type FakeStep = FakeReply | FakeFault | ((request: RecordedRequest, index: number) => FakeReply | FakeFault);

export interface FakeOpenAIOptions {
  script?: FakeStep[];
  validate?: boolean;
  apiKey?: string;
  models?: string[];
  /** Answer with one plain JSON completion even when `stream: true` was asked (some servers do). */
  ignoreStream?: boolean;
}

export interface FakeOpenAI {
  url: string;
  requests: RecordedRequest[];
  readonly chatRequests: RecordedRequest[];
  invalid: string[];
  exhausted: boolean;
  readonly remaining: number;
  push(...steps: FakeStep[]): void;
  close(): Promise<void>;
}

type Cut = { after: number; mode: 'destroy' | 'end' | 'stall' };
type Wait = (ms: number) => Promise<void>;

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

function errorBody(message: string, type: string, code: string | null = null): unknown {
  return { error: { message, type, param: null, code } };
}

/** Timers that close() can cancel, so a stalled or slow reply never outlives the server. */
function cancellableWaits(): { wait: Wait; cancelAll(): void } {
  const timers = new Set<NodeJS.Timeout>();
  return {
    wait: (ms) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, ms);
        timers.add(timer);
      }),
    cancelAll: () => {
      for (const timer of timers) clearTimeout(timer);
    },
  };
}

async function writeStream(options: {
  res: ServerResponse;
  chunks: unknown[];
  reply: FakeReply;
  cut: Cut | undefined;
  wait: Wait;
}): Promise<void> {
  const { res, reply, cut } = options;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const cutNow = async (): Promise<void> => {
    // Let what was written reach the client first, so it really saw part of the reply.
    await new Promise<void>((resolve) => res.write('', () => resolve()));
    if (cut?.mode === 'end') res.end();
    else if (cut?.mode === 'destroy') res.socket?.destroy();
    // 'stall': say nothing more; close() destroys the socket.
  };
  for (const [index, chunk] of options.chunks.entries()) {
    if (cut && index >= cut.after) return cutNow();
    if (res.destroyed) return;
    res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    if (reply.chunkDelayMs) await options.wait(reply.chunkDelayMs);
  }
  // Cut after every chunk was sent: drop [DONE] too.
  if (cut) return cutNow();
  res.end('data: [DONE]\n\n');
}

/** How one request is answered: as a stream or one JSON body, whole or cut. */
interface Answer {
  res: ServerResponse;
  streaming: boolean;
  play(reply: FakeReply, cut?: Cut): Promise<void>;
  wait: Wait;
}

function answerFor(options: {
  res: ServerResponse;
  body: { model?: string; messages?: unknown[]; stream?: boolean; stream_options?: { include_usage?: boolean } };
  index: number;
  ignoreStream: boolean;
  wait: Wait;
}): Answer {
  const { res, body, wait } = options;
  const context: WireContext = {
    model: body.model ?? 'fake-model',
    promptChars: JSON.stringify(body.messages ?? []).length,
    callIdBase: `call_fake${options.index}`,
  };
  const streaming = body.stream === true && !options.ignoreStream;
  const includeUsage = body.stream_options?.include_usage === true;
  const play = async (reply: FakeReply, cut?: Cut): Promise<void> => {
    if (streaming) return writeStream({ res, chunks: streamChunks(reply, context, includeUsage), reply, cut, wait });
    if (cut) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(JSON.stringify(completionObject(reply, context)).slice(0, 20));
      res.socket?.destroy();
      return;
    }
    sendJson(res, 200, completionObject(reply, context));
  };
  return { res, streaming, play, wait };
}

/** Plays one injected fault (see the header for what each does). */
async function playFault(fault: FakeFault, answer: Answer): Promise<void> {
  const { res, play } = answer;
  switch (fault.fault) {
    case 'status': {
      const headers: Record<string, string> =
        fault.retryAfter === undefined ? {} : { 'retry-after': String(fault.retryAfter) };
      const fallback = errorBody(
        `fake-openai: injected HTTP ${fault.status}`,
        fault.status === 429 ? 'rate_limit_exceeded' : 'server_error',
      );
      return sendJson(res, fault.status, fault.body ?? fallback, headers);
    }
    case 'slow-first-byte':
      await answer.wait(fault.delayMs);
      if (res.destroyed) return;
      return play(fault.reply ?? { content: 'slow reply' });
    case 'cut-stream':
      return play(fault.reply ?? { content: 'this reply will be cut off before it ends' }, {
        after: fault.afterChunks,
        mode: fault.mode ?? 'destroy',
      });
    case 'malformed-json':
      if (!answer.streaming) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end('{"id": "chatcmpl-broken", "choices": [ this is not json');
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return void res.end('data: {"id": "chatcmpl-broken", "choices": [ this is not json\n\ndata: [DONE]\n\n');
    case 'stall':
      return play(fault.reply ?? { content: 'this reply stops and never ends' }, {
        after: fault.afterChunks,
        mode: 'stall',
      });
    case 'reset':
      return void res.socket?.destroy();
    case 'stream-error':
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return void res.end(`data: ${JSON.stringify({ error: fault.error })}\n\n`);
    case 'tool-calls-as-text':
      return play({ content: toolCallsAsText(fault.toolCalls, fault.style, fault.prefix) });
  }
}

/** The request as tests see it, and whether its body was JSON (an empty body counts as parsed). */
function recordRequest(req: IncomingMessage, text: string): { recorded: RecordedRequest; parsed: boolean } {
  let body: unknown = text;
  let parsed = text === '';
  try {
    if (text !== '') {
      body = JSON.parse(text);
      parsed = true;
    }
  } catch {
    parsed = false;
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    headers[name] = Array.isArray(value) ? value.join(', ') : String(value ?? '');
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  return { recorded: { method: req.method ?? 'GET', path, headers, body, receivedAt: Date.now() }, parsed };
}

/** Auth, the models list, unknown routes, bad JSON and invalid transcripts; true when the request was answered here. */
function answeredBeforeScript(options: {
  recorded: RecordedRequest;
  parsed: boolean;
  res: ServerResponse;
  fake: FakeOpenAIOptions;
  invalid: string[];
}): boolean {
  const { recorded, res, fake } = options;
  const { method, path, headers, body } = recorded;
  if (fake.apiKey !== undefined && headers.authorization !== `Bearer ${fake.apiKey}`) {
    sendJson(res, 401, errorBody('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'));
    return true;
  }
  if (method === 'GET' && path === '/v1/models') {
    const ids = fake.models ?? ['fake-model'];
    sendJson(res, 200, {
      object: 'list',
      data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake-openai' })),
    });
    return true;
  }
  if (method !== 'POST' || path !== '/v1/chat/completions') {
    sendJson(res, 404, errorBody(`fake-openai: no route ${method} ${path}`, 'invalid_request_error'));
    return true;
  }
  if (!options.parsed) {
    sendJson(res, 400, errorBody('We could not parse the JSON body of your request.', 'invalid_request_error'));
    return true;
  }
  const problem = fake.validate !== false ? validateChatRequest(body) : undefined;
  if (problem) {
    options.invalid.push(problem);
    sendJson(res, 400, errorBody(`fake-openai: invalid request: ${problem}`, 'invalid_request_error'));
    return true;
  }
  return false;
}

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const script = [...(options.script ?? [])];
  let next = 0;
  const sockets = new Set<Socket>();
  const { wait, cancelAll } = cancellableWaits();

  const state: FakeOpenAI = {
    url: '',
    requests: [],
    get chatRequests() {
      return state.requests.filter(
        (request) => request.method === 'POST' && request.path.endsWith('/chat/completions'),
      );
    },
    invalid: [],
    exhausted: false,
    get remaining() {
      return script.length - next;
    },
    push: (...steps) => void script.push(...steps),
    close: async () => {
      cancelAll();
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  async function answer(req: RecordedRequest, res: ServerResponse): Promise<void> {
    const index = next;
    const step = script[index];
    if (step === undefined) {
      state.exhausted = true;
      return sendJson(
        res,
        500,
        errorBody(
          `fake-openai: script exhausted (request #${state.chatRequests.length} had no scripted reply)`,
          'server_error',
        ),
      );
    }
    next += 1;
    const resolved = typeof step === 'function' ? step(req, index) : step;
    const reply = answerFor({ res, body: req.body, index, ignoreStream: options.ignoreStream === true, wait });
    return 'fault' in resolved ? playFault(resolved, reply) : reply.play(resolved);
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const { recorded, parsed } = recordRequest(req, Buffer.concat(chunks).toString('utf8'));
      state.requests.push(recorded);
      if (answeredBeforeScript({ recorded, parsed, res, fake: options, invalid: state.invalid })) return;
      answer(recorded, res).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, errorBody(`fake-openai: ${String(error)}`, 'server_error'));
        else res.destroy();
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}

/** The model config that points a provider at `fake`: openai/gpt-4o-mini with the key sk-test (`overrides` win). */
export function modelAt(fake: Pick<FakeOpenAI, 'url'>, overrides: Partial<RemoteModelConfig> = {}): RemoteModelConfig {
  return {
    id: 'openai/gpt-4o-mini',
    provider: 'openai',
    model: 'gpt-4o-mini',
    baseUrl: fake.url,
    apiKey: 'sk-test',
    apiKeyEnv: 'OPENAI_API_KEY',
    local: false,
    ...overrides,
  };
}
