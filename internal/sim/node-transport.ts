// A lean server side of MCP Streamable HTTP for node:http, one instance per session. The SDK's
// StreamableHTTPServerTransport converts every node request into a web Request and back (through @hono/node-server),
// which cost more CPU per call than the game itself; this one answers POSTed requests with plain JSON bodies, keeps
// the optional GET event stream for server-initiated messages, and closes on DELETE. The MCP protocol itself
// (initialize, tools/list, tools/call, errors) stays in the SDK's Server.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { isJsonRpcMessage, isJsonRpcRequest } from '../shared/index.js';
import { refuseRequest } from './rpc-check.js';

type Json = Record<string, unknown>;

interface PendingPost {
  res: ServerResponse;
  waiting: Set<RequestId>;
  responses: Json[];
  batch: boolean;
  /** Answer as an event stream: the client asked for progress, which must travel before the response. */
  sse: boolean;
}

function wantsProgress(message: Json): boolean {
  const params = message.params as { _meta?: { progressToken?: unknown } } | undefined;
  return params?._meta?.progressToken !== undefined;
}

function isResponse(message: Json): boolean {
  return typeof message.method !== 'string' && ('result' in message || 'error' in message);
}

function writeEvent(res: ServerResponse, message: Json): void {
  if (!res.writableEnded && !res.destroyed) res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

export class NodeStreamableTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly pending = new Map<RequestId, PendingPost>();
  private stream: ServerResponse | null = null;
  private closed = false;

  constructor(readonly sessionId: string) {}

  async start(): Promise<void> {}

  /** A POST whose body has been read and parsed (a message or a batch). */
  handlePost(res: ServerResponse, body: unknown): void {
    const batch = Array.isArray(body);
    const messages = batch ? (body as unknown[]) : [body];
    if (messages.length === 0 || !messages.every(isJsonRpcMessage)) {
      this.reply(res, 400, {
        jsonrpc: '2.0',
        error: {
          code: -32600,
          message: 'invalid request: expected a JSON-RPC 2.0 message or batch (an id is a string or a number)',
        },
        id: null,
      });
      return;
    }
    const requests = (messages as Json[]).filter(isJsonRpcRequest);
    if (requests.length === 0) {
      for (const message of messages) this.onmessage?.(message as JSONRPCMessage);
      res.writeHead(202, { 'mcp-session-id': this.sessionId });
      res.end();
      return;
    }
    // Requests the SDK would drop or answer badly are answered here and never reach it (rpc-check.ts).
    const refusals = new Map<Json, Json>();
    for (const request of requests) {
      const refused = refuseRequest(request);
      if (refused) refusals.set(request, refused);
    }
    const post = this.open(res, {
      batch,
      ids: requests.filter((request) => !refusals.has(request)).map((request) => request.id as RequestId),
      sse: requests.some((request) => !refusals.has(request) && wantsProgress(request)),
    });
    for (const refusal of refusals.values()) this.answer(post, refusal);
    if (post.waiting.size === 0 && !post.sse) this.reply(res, 200, batch ? post.responses : post.responses[0]);
    for (const message of messages as Json[]) if (!refusals.has(message)) this.onmessage?.(message as JSONRPCMessage);
  }

  /** A POST that waits for the answers to these request ids (an event stream when one asked for progress). */
  private open(res: ServerResponse, options: { batch: boolean; ids: RequestId[]; sse: boolean }): PendingPost {
    const post: PendingPost = {
      res,
      waiting: new Set(options.ids),
      responses: [],
      batch: options.batch,
      sse: options.sse,
    };
    if (post.sse) {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'mcp-session-id': this.sessionId,
      });
      res.flushHeaders();
    }
    for (const id of post.waiting) this.pending.set(id, post);
    res.on('close', () => {
      // The client went away: forget its requests so late answers are dropped.
      for (const id of post.waiting) if (this.pending.get(id) === post) this.pending.delete(id);
    });
    return post;
  }

  /** One answer for a POST: an event at once on a stream, else kept until the last one (answered by the caller). */
  private answer(post: PendingPost, response: Json): void {
    if (post.sse) writeEvent(post.res, response);
    else post.responses.push(response);
  }

  /** GET: the stream for messages the server sends on its own (notifications); one per session. */
  handleGet(req: IncomingMessage, res: ServerResponse): void {
    if (this.stream) {
      this.reply(res, 409, {
        jsonrpc: '2.0',
        error: { code: -32000, message: 'conflict: only one event stream per session' },
        id: null,
      });
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'mcp-session-id': this.sessionId,
    });
    res.flushHeaders();
    this.stream = res;
    req.on('close', () => {
      if (this.stream === res) this.stream = null;
    });
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const json = message as unknown as Json;
    if (isResponse(json)) {
      const id = json.id as RequestId;
      const post = this.pending.get(id);
      if (!post) return;
      this.pending.delete(id);
      post.waiting.delete(id);
      this.answer(post, json);
      if (post.waiting.size > 0) return;
      if (post.sse) post.res.end();
      else this.reply(post.res, 200, post.batch ? post.responses : post.responses[0]);
      return;
    }
    const related = options?.relatedRequestId === undefined ? undefined : this.pending.get(options.relatedRequestId);
    if (related?.sse) {
      writeEvent(related.res, json);
      return;
    }
    // Notifications and server requests go to the event stream when the client opened one; JSON answers cannot carry them.
    if (this.stream) writeEvent(this.stream, json);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stream?.end();
    this.stream = null;
    for (const post of new Set(this.pending.values())) {
      if (post.sse) post.res.end();
      else if (!post.res.headersSent)
        this.reply(post.res, 404, { jsonrpc: '2.0', error: { code: -32001, message: 'session closed' }, id: null });
    }
    this.pending.clear();
    this.onclose?.();
  }

  private reply(res: ServerResponse, status: number, body: unknown): void {
    if (res.writableEnded || res.destroyed) return;
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      'mcp-session-id': this.sessionId,
    });
    res.end(text);
  }
}
