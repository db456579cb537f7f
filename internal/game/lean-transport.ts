// The game's Streamable HTTP transport with a short path for the usual call: once the session is open, a request
// is POSTed with plain header records and a 200 JSON answer goes straight to the client, checked by shape. The SDK's
// own path builds Headers, a Response with a body stream and a zod parse for every answer, which cost a fleet ~9% of
// its CPU per game action (30 captains side by side). Every other answer (an event stream, 202, an error status, a
// redirect, a new session id) is handed to the SDK's transport as the response to the POST it makes next, so it
// reads it exactly as before and nothing is sent twice. The initialize request, notifications, batches and
// resumptions take the SDK's path from the start. Imported only when a connection opens (it extends the SDK class).
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isJsonRpcMessage, isJsonRpcRequest } from '../shared/index.js';
import type { LeanAnswer } from './lean-fetch.js';

/** POSTs a body and answers as leanPost does. */
export type LeanPost = (
  url: URL,
  init: { headers: Record<string, string>; body: string; signal?: AbortSignal },
) => Promise<LeanAnswer>;

type SendOptions = Parameters<StreamableHTTPClientTransport['send']>[1];

export class LeanStreamableTransport extends StreamableHTTPClientTransport {
  private readonly endpoint: URL;
  private readonly post: LeanPost;
  /** Answers the short path read but leaves to the SDK, by the body the SDK is about to POST. */
  private readonly handOvers: Map<string, Response>;
  private aborter: AbortController | undefined;

  constructor(url: URL, options: { fetch: FetchLike; post: LeanPost }) {
    const handOvers = new Map<string, Response>();
    super(url, {
      fetch: async (input, init) => {
        const body = init?.body;
        const handed = typeof body === 'string' ? handOvers.get(body) : undefined;
        if (handed === undefined) return options.fetch(input, init);
        handOvers.delete(body as string);
        return handed;
      },
    });
    this.handOvers = handOvers;
    this.endpoint = url;
    this.post = options.post;
  }

  override async start(): Promise<void> {
    this.aborter = new AbortController();
    await super.start();
  }

  override async close(): Promise<void> {
    this.aborter?.abort();
    this.handOvers.clear();
    await super.close();
  }

  override async send(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void> {
    const sessionId = this.sessionId;
    if (
      sessionId === undefined ||
      Array.isArray(message) ||
      options?.resumptionToken ||
      !isJsonRpcRequest(message as Record<string, unknown>)
    )
      return super.send(message, options);
    const body = JSON.stringify(message);
    const headers: Record<string, string> = {
      'mcp-session-id': sessionId,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const version = this.protocolVersion;
    if (version) headers['mcp-protocol-version'] = version;
    let answer: LeanAnswer;
    try {
      answer = await this.post(this.endpoint, {
        headers,
        body,
        ...(this.aborter ? { signal: this.aborter.signal } : {}),
      });
    } catch (error) {
      this.onerror?.(error as Error);
      throw error;
    }
    const newSession = answer.header('mcp-session-id');
    if (answer.json !== undefined && (newSession === null || newSession === sessionId)) {
      this.deliver(answer.json);
      return;
    }
    this.handOvers.set(body, answer.response ?? jsonResponse(answer));
    return super.send(message, options);
  }

  /** What the SDK does with a JSON answer: every message to the client, a malformed answer an error. */
  private deliver(text: string): void {
    let messages: JSONRPCMessage[];
    try {
      const data = JSON.parse(text) as unknown;
      messages = (Array.isArray(data) ? data : [data]).map((item: unknown) =>
        isJsonRpcMessage(item) ? (item as JSONRPCMessage) : JSONRPCMessageSchema.parse(item),
      );
    } catch (error) {
      this.onerror?.(error as Error);
      throw error;
    }
    for (const each of messages) this.onmessage?.(each);
  }
}

/** A 200 JSON answer the SDK must read itself (it carries a new session id). */
function jsonResponse(answer: LeanAnswer): Response {
  const headers = new Headers({ 'content-type': 'application/json' });
  const session = answer.header('mcp-session-id');
  if (session !== null) headers.set('mcp-session-id', session);
  return new Response(answer.json ?? '', { status: answer.status, headers });
}
