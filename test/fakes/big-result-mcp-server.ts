// A generic MCP game over HTTP (the SDK's streamable HTTP server, JSON answers) whose one tool, `dump`, answers a
// text of a chosen size: head, a long middle, and a tail that says what matters (as real results end). For the
// limits on a tool result (issue 48): how much of it the store keeps and how much memory reading it costs.
import { createServer, type IncomingMessage } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { closeLocalServer, listenLocally } from './local-server.js';
import { sessionTransport } from './bad-mcp-servers.js';

export const BIG_RESULT_HEAD = 'DUMP-HEAD: the start of the answer';
export const BIG_RESULT_TAIL = 'DUMP-TAIL: total 42 items, no errors';

export interface BigResultServer {
  url: string;
  /** tools/call requests answered. */
  calls(): number;
  close(): Promise<void>;
}

function bigText(chars: number): string {
  const middle = Math.max(0, chars - BIG_RESULT_HEAD.length - BIG_RESULT_TAIL.length - 2);
  return `${BIG_RESULT_HEAD}\n${'x'.repeat(middle)}\n${BIG_RESULT_TAIL}`;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as unknown) : undefined;
}

export async function startBigResultServer(options: { chars: number }): Promise<BigResultServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  let calls = 0;
  const mcpServer = (): Server => {
    const server = new Server({ name: 'big-result', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        {
          name: 'dump',
          description: 'Lists everything there is (a long answer).',
          inputSchema: { type: 'object' as const, properties: {} },
          annotations: { readOnlyHint: true },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, () => {
      calls += 1;
      return { content: [{ type: 'text', text: bigText(options.chars) }] };
    });
    return server;
  };
  const http = createServer((request, response) => {
    void (async () => {
      const body = request.method === 'POST' ? await readBody(request) : undefined;
      const transport = await sessionTransport(request, transports, mcpServer);
      await transport.handleRequest(request, response, body);
    })().catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  const port = await listenLocally(http);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls: () => calls,
    close: () => closeLocalServer(http, transports.values()),
  };
}
