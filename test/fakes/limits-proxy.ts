// A strict SpaceMolt in front of minimolt: an HTTP proxy that enforces the real server's limits (FakeLimits: queries
// per account in a sliding window, get_notifications once a tick, logins per IP, an IP timeout past so many refusals)
// on every tools/call, records each call with its answer, and can answer one call with `session_required` as the
// real server does when a call leaves out its session. Everything else passes through untouched.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { fromFaceCall } from '../../internal/spacemolt/index.js';
import { FakeLimits, type FakeLimitsOptions } from './fake-limits.js';
import { closeLocalServer, listenLocally } from './local-server.js';

export interface ProxiedCall {
  session: string | undefined;
  op: string;
  args: Record<string, unknown>;
  at: number;
  text: string;
  /** The answer's sentence: the text, or the `message` of a JSON answer (the flat /mcp face answers JSON). */
  sentence: string;
  isError: boolean;
  /** Refused here (limits or the injected session_required), never reached minimolt. */
  refusedHere: boolean;
  /** The station the account was last seen docked at (its last status's `Docked at:`, or JSON `docked_at_base`). */
  dockedAt: string | undefined;
}

export interface LimitsProxy {
  url: string;
  limits: FakeLimits;
  calls: ProxiedCall[];
  /** Index in `calls` of the injected session_required answer, once it was given. */
  injectedAt: number | undefined;
  close(): Promise<void>;
}

export async function startLimitsProxy(options: {
  target: string;
  limits: Omit<FakeLimitsOptions, 'now'>;
  /** Answer the Nth tools/call (1-based) with session_required instead of forwarding it. */
  sessionRequiredAt?: number;
}): Promise<LimitsProxy> {
  const base = new URL(options.target);
  const limits = new FakeLimits({ now: () => Date.now(), ...options.limits });
  const calls: ProxiedCall[] = [];
  const docked = new Map<string, string | undefined>();
  const proxy: LimitsProxy = { url: '', limits, calls, injectedAt: undefined, close: async () => {} };
  let toolCalls = 0;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const session = typeof req.headers['mcp-session-id'] === 'string' ? req.headers['mcp-session-id'] : undefined;
      const call = toolCall(body, req.url ?? '');
      if (call) {
        toolCalls += 1;
        const user = session;
        const injected = toolCalls === options.sessionRequiredAt;
        const refusal = injected
          ? textResult('Error: session_required: include your session_id in every call (log in again for a new one)')
          : limits.refuse({ op: call.op, user });
        if (refusal) {
          if (injected) proxy.injectedAt = calls.length;
          limits.answered(refusal);
          record({ call, session, result: refusal, refusedHere: true });
          sendJson(res, { jsonrpc: '2.0', id: call.id, result: refusal }, session);
          return;
        }
      }
      forward({ base, req, res, body }, (raw) => {
        const result = call ? resultOf(raw) : undefined;
        if (call && result) {
          limits.answered(result);
          record({ call, session, result, refusedHere: false });
        }
      });
    });
  });

  function record(entry: {
    call: { op: string; args: Record<string, unknown> };
    session: string | undefined;
    result: CallToolResult;
    refusedHere: boolean;
  }): void {
    const text = (entry.result.content as Array<{ type: string; text?: string }>)
      .map((part) => part.text ?? '')
      .join('\n');
    const key = entry.session ?? '';
    const json = jsonAnswer(text);
    if (entry.call.op === 'get_status' && !entry.result.isError) {
      const base = (json?.player as { docked_at_base?: unknown } | undefined)?.docked_at_base;
      docked.set(key, json ? (typeof base === 'string' ? base : undefined) : /^Docked at: (\S+)/m.exec(text)?.[1]);
    }
    calls.push({
      session: entry.session,
      op: entry.call.op,
      args: entry.call.args,
      at: Date.now(),
      text,
      sentence: typeof json?.message === 'string' ? json.message : text,
      isError: entry.result.isError === true,
      refusedHere: entry.refusedHere,
      dockedAt: docked.get(key),
    });
  }

  const port = await listenLocally(server);
  proxy.url = `http://127.0.0.1:${port}`;
  proxy.close = () => closeLocalServer(server);
  return proxy;
}

/** Sends the request on to the target and its answer back unchanged; `seen` reads the answer's body first. */
function forward(
  exchange: { base: URL; req: IncomingMessage; res: ServerResponse; body: Buffer },
  seen: (raw: string) => void,
): void {
  const { base, req, res, body } = exchange;
  const upstream = httpRequest(
    {
      host: base.hostname,
      port: base.port,
      path: req.url,
      method: req.method,
      headers: { ...req.headers, host: base.host },
    },
    (answer) => {
      const parts: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => parts.push(chunk));
      answer.on('end', () => {
        const raw = Buffer.concat(parts);
        seen(raw.toString('utf8'));
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(raw);
      });
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  upstream.end(body);
}

/** A JSON object answer (the flat /mcp face's), or undefined for text. */
function jsonAnswer(text: string): Record<string, unknown> | undefined {
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    const json: unknown = JSON.parse(text);
    return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function sendJson(res: ServerResponse, body: unknown, session: string | undefined): void {
  const text = JSON.stringify(body);
  res.writeHead(200, { 'content-type': 'application/json', ...(session ? { 'mcp-session-id': session } : {}) });
  res.end(text);
}

/** The tools/call a request carries, read back as Skipper's op on the face its path serves. */
function toolCall(body: Buffer, path: string): { id: unknown; op: string; args: Record<string, unknown> } | undefined {
  let message: { method?: unknown; id?: unknown; params?: { name?: unknown; arguments?: unknown } };
  try {
    message = JSON.parse(body.toString('utf8')) as typeof message;
  } catch {
    return undefined;
  }
  if (message.method !== 'tools/call' || typeof message.params?.name !== 'string') return undefined;
  const args =
    message.params.arguments && typeof message.params.arguments === 'object'
      ? (message.params.arguments as Record<string, unknown>)
      : {};
  const face = path.startsWith('/mcp/v2') ? 'v2' : 'v1';
  const op = fromFaceCall(face, message.params.name, args)?.op ?? message.params.name;
  return { id: message.id, op, args };
}

/** The tool result of an answer sent as JSON or as server-sent events. */
function resultOf(raw: string): CallToolResult | undefined {
  const bodies = raw.trimStart().startsWith('{')
    ? [raw]
    : raw
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim());
  for (const body of bodies) {
    try {
      const message = JSON.parse(body) as { result?: CallToolResult };
      if (message.result?.content) return message.result;
    } catch {
      // not this one
    }
  }
  return undefined;
}
