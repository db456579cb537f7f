// One MCP server per session, over any transport (in-memory or Streamable HTTP). We use the SDK's low-level Server so
// argument validation stays ours: an ill-typed call is an `invalid_params` tool result naming the field (the
// high-level McpServer would answer with its own protocol error text), and an unknown tool is a real MCP error.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../shared/index.js';
import { TOOLS, isReadOnly, toJsonSchema } from './catalog.js';
import { GameSession, UnknownToolError, type SimHost } from './session.js';

export const SERVER_NAME = 'minimolt';
export const SERVER_VERSION = '0.1.0';

/** tools/list's answer. Build it once per server (JSON Schema conversion is not free) and share it. */
export function buildToolList(): Array<Record<string, unknown>> {
  return TOOLS.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: toJsonSchema(tool.schema),
    annotations: { readOnlyHint: isReadOnly(tool), destructiveHint: false, openWorldHint: false },
  }));
}

export interface McpSession {
  server: Server;
  game: GameSession;
}

export function createMcpSession(options: { host: SimHost; logger: Logger; tools: Array<Record<string, unknown>> }): McpSession {
  const game = new GameSession(options.host);
  const server = new Server(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: 'minimolt, a small offline cousin of SpaceMolt. Call help for the rules, register or login to play.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: options.tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const token = request.params._meta?.progressToken;
    const onProgress = token === undefined ? undefined : (progress: number, total: number, message: string): void => {
      void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, total, message } })
        .catch(() => {}); // the client may be gone; the action still resolves
    };
    try {
      return await game.call(request.params.name, request.params.arguments, onProgress);
    } catch (error) {
      if (error instanceof UnknownToolError) throw new McpError(ErrorCode.InvalidParams, error.message);
      options.logger.error({ err: error, tool: request.params.name }, 'tool call failed');
      throw new McpError(ErrorCode.InternalError, 'internal error in minimolt: see the server log');
    }
  });
  server.onclose = () => game.close();
  return { server, game };
}
