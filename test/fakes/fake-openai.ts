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

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const script = [...(options.script ?? [])];
  let next = 0;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

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
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
    if (res.destroyed) return;
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(text);
  };
  const errorBody = (message: string, type: string, code: string | null = null): unknown => ({
    error: { message, type, param: null, code },
  });

  async function writeStream(
    res: ServerResponse,
    chunks: unknown[],
    reply: FakeReply,
    cut?: { after: number; mode: 'destroy' | 'end' | 'stall' },
  ): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const cutNow = async (): Promise<void> => {
      // Let what was written reach the client first, so it really saw part of the reply.
      await new Promise<void>((resolve) => res.write('', () => resolve()));
      if (cut?.mode === 'end') res.end();
      else if (cut?.mode === 'destroy') res.socket?.destroy();
      // 'stall': say nothing more; close() destroys the socket.
    };
    for (const [index, chunk] of chunks.entries()) {
      if (cut && index >= cut.after) return cutNow();
      if (res.destroyed) return;
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      if (reply.chunkDelayMs) await wait(reply.chunkDelayMs);
    }
    // Cut after every chunk was sent: drop [DONE] too.
    if (cut) return cutNow();
    res.end('data: [DONE]\n\n');
  }

  async function answer(req: RecordedRequest, res: ServerResponse): Promise<void> {
    const body = req.body as {
      model?: string;
      messages?: unknown[];
      stream?: boolean;
      stream_options?: { include_usage?: boolean };
    };
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
    const context: WireContext = {
      model: body.model ?? 'fake-model',
      promptChars: JSON.stringify(body.messages ?? []).length,
      callIdBase: `call_fake${index}`,
    };
    const streaming = body.stream === true && options.ignoreStream !== true;
    const includeUsage = body.stream_options?.include_usage === true;
    const play = async (
      reply: FakeReply,
      cut?: { after: number; mode: 'destroy' | 'end' | 'stall' },
    ): Promise<void> => {
      if (streaming) return writeStream(res, streamChunks(reply, context, includeUsage), reply, cut);
      if (cut) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(JSON.stringify(completionObject(reply, context)).slice(0, 20));
        res.socket?.destroy();
        return;
      }
      sendJson(res, 200, completionObject(reply, context));
    };
    if (!('fault' in resolved)) return play(resolved);
    switch (resolved.fault) {
      case 'status': {
        const headers: Record<string, string> =
          resolved.retryAfter === undefined ? {} : { 'retry-after': String(resolved.retryAfter) };
        const fallback = errorBody(
          `fake-openai: injected HTTP ${resolved.status}`,
          resolved.status === 429 ? 'rate_limit_exceeded' : 'server_error',
        );
        return sendJson(res, resolved.status, resolved.body ?? fallback, headers);
      }
      case 'slow-first-byte':
        await wait(resolved.delayMs);
        if (res.destroyed) return;
        return play(resolved.reply ?? { content: 'slow reply' });
      case 'cut-stream':
        return play(resolved.reply ?? { content: 'this reply will be cut off before it ends' }, {
          after: resolved.afterChunks,
          mode: resolved.mode ?? 'destroy',
        });
      case 'malformed-json':
        if (!streaming) {
          res.writeHead(200, { 'content-type': 'application/json' });
          return void res.end('{"id": "chatcmpl-broken", "choices": [ this is not json');
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        return void res.end('data: {"id": "chatcmpl-broken", "choices": [ this is not json\n\ndata: [DONE]\n\n');
      case 'stall':
        return play(resolved.reply ?? { content: 'this reply stops and never ends' }, {
          after: resolved.afterChunks,
          mode: 'stall',
        });
      case 'reset':
        return void res.socket?.destroy();
      case 'stream-error':
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        return void res.end(`data: ${JSON.stringify({ error: resolved.error })}\n\n`);
      case 'tool-calls-as-text':
        return play({ content: toolCallsAsText(resolved.toolCalls, resolved.style, resolved.prefix) });
    }
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
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
      const recorded: RecordedRequest = { method: req.method ?? 'GET', path, headers, body, receivedAt: Date.now() };
      state.requests.push(recorded);
      if (options.apiKey !== undefined && headers.authorization !== `Bearer ${options.apiKey}`) {
        return sendJson(res, 401, errorBody('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'));
      }
      if (req.method === 'GET' && path === '/v1/models') {
        const ids = options.models ?? ['fake-model'];
        return sendJson(res, 200, {
          object: 'list',
          data: ids.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake-openai' })),
        });
      }
      if (req.method !== 'POST' || path !== '/v1/chat/completions') {
        return sendJson(res, 404, errorBody(`fake-openai: no route ${req.method} ${path}`, 'invalid_request_error'));
      }
      if (!parsed)
        return sendJson(
          res,
          400,
          errorBody('We could not parse the JSON body of your request.', 'invalid_request_error'),
        );
      if (options.validate !== false) {
        const problem = validateChatRequest(body);
        if (problem) {
          state.invalid.push(problem);
          return sendJson(res, 400, errorBody(`fake-openai: invalid request: ${problem}`, 'invalid_request_error'));
        }
      }
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
