// The SpaceMolt-shaped MCP server fake (./fake-spacemolt-server.ts) over real HTTP: Streamable HTTP at /mcp, one MCP
// session per client, an HTML 404 elsewhere, the world's HTTP 429 knob, and a port a test can restart it on.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createGameServer, type FakeWorld } from './fake-spacemolt-server.js';
import { closeLocalServer, listenLocally } from './local-server.js';

export interface HttpGame {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Streamable HTTP at /mcp; `port` lets a test restart the server where the client expects it. */
export async function listenHttp(world: FakeWorld, port = 0): Promise<HttpGame> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (!request.url?.startsWith('/mcp')) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<html>not found</html>');
      return;
    }
    if (request.method === 'POST' && world.http429Next > 0) {
      world.http429Next -= 1;
      response.writeHead(429, { 'retry-after': String(world.retryAfter) }).end('slow down');
      return;
    }
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = transports.get(sessionId);
      if (!transport) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }),
        );
        return;
      }
      await transport.handleRequest(request, response);
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        transports.set(id, transport);
      },
    });
    await createGameServer(world).connect(transport);
    await transport.handleRequest(request, response);
  };
  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  const actual = await listenLocally(server, port);
  return {
    url: `http://127.0.0.1:${actual}/mcp`,
    port: actual,
    close: () => closeLocalServer(server, transports.values()),
  };
}
