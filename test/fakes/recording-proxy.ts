// A pass-through HTTP proxy for tests: forwards every request to a target server (a real `skipper serve`) and
// records the MCP tool calls it carries, in order, so a test can see what a client sent without touching either side.
// It can also play a busy server's /health: `failHealthReads: N` answers the first N reads 503 instead of forwarding.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedCall {
  /** The MCP session it came on (Mcp-Session-Id header; undefined on initialize). */
  session: string | undefined;
  name: string;
  args: Record<string, unknown>;
}

export interface RecordingProxy {
  url: string;
  calls: RecordedCall[];
  /** How many reads of /health came, the failed ones included. */
  healthReads(): number;
  close(): Promise<void>;
}

export interface RecordingProxyOptions {
  /** Answer the first N reads of /health 503 `busy` instead of forwarding them (default 0). */
  failHealthReads?: number;
}

export async function startRecordingProxy(
  target: string,
  options: RecordingProxyOptions = {},
): Promise<RecordingProxy> {
  const base = new URL(target);
  const calls: RecordedCall[] = [];
  let healthReads = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/health') {
      healthReads += 1;
      if (healthReads <= (options.failHealthReads ?? 0)) {
        res.writeHead(503, { 'content-type': 'text/plain' }).end('busy');
        return;
      }
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      record(calls, req.headers['mcp-session-id'], body);
      const upstream = httpRequest(
        {
          host: base.hostname,
          port: base.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: base.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    healthReads: () => healthReads,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function record(calls: RecordedCall[], session: string | string[] | undefined, body: Buffer): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return;
  }
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    const { method, params } = (message ?? {}) as {
      method?: unknown;
      params?: { name?: unknown; arguments?: unknown };
    };
    if (method !== 'tools/call' || typeof params?.name !== 'string') continue;
    const args =
      params.arguments !== null && typeof params.arguments === 'object'
        ? (params.arguments as Record<string, unknown>)
        : {};
    calls.push({ session: typeof session === 'string' ? session : undefined, name: params.name, args });
  }
}

/** Per account, its MCP sessions in the order their runs of calls came: [A, B] is a takeover, [A, B, A] an overlap. */
export function sessionRuns(calls: readonly RecordedCall[]): Map<string, string[]> {
  const accountOf = sessionAccounts(calls);
  const runs = new Map<string, string[]>();
  for (const call of calls) {
    const account = call.session ? accountOf.get(call.session) : undefined;
    if (!account || !call.session) continue;
    const sessions = runs.get(account) ?? [];
    if (sessions[sessions.length - 1] !== call.session) sessions.push(call.session);
    runs.set(account, sessions);
  }
  return runs;
}

/** The account each MCP session played (the username its login or registration named). */
export function sessionAccounts(calls: readonly RecordedCall[]): Map<string, string> {
  const accountOf = new Map<string, string>();
  for (const call of calls)
    if (call.session && typeof call.args.username === 'string') accountOf.set(call.session, call.args.username);
  return accountOf;
}
