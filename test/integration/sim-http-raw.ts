// Raw HTTP for minimolt's HTTP tests: node:http (fetch cannot set Host or pick the local address) and a plain
// JSON-RPC session opener.
import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): any;
}

export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, localAddress: options.localAddress },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

export function rpc(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return raw(url, { method: 'POST', headers: { ...MCP_HEADERS, ...headers }, body: JSON.stringify(body) });
}

/** initialize + initialized; returns the session id. */
export async function openSession(url: string): Promise<string> {
  const init = await rpc(url, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
  });
  if (init.status !== 200) throw new Error(`initialize: ${init.status} ${init.text}`);
  const session = String(init.headers['mcp-session-id'] ?? '');
  await rpc(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders(session));
  return session;
}

export function sessionHeaders(session: string): Record<string, string> {
  return { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
}

/** The session_id of a login or register tools/call answer (the v1 face's JSON text): every later v1 call carries it. */
export function greetingSessionId(response: RawResponse): string {
  const text = String(response.json()?.result?.content?.[0]?.text ?? '');
  const id = /^\{/.test(text) ? (JSON.parse(text) as { session_id?: unknown }).session_id : undefined;
  if (typeof id !== 'string' || !/^[0-9a-f]{64}$/.test(id)) throw new Error(`no session_id in ${response.text}`);
  return id;
}
