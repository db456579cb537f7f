// One MCP server per session, over any transport (in-memory or Streamable HTTP), speaking one face (v1 flat or v2
// grouped). We use the SDK's low-level Server so argument checks stay ours: an ill-typed call is an `invalid_params`
// tool result naming the field, an unknown parameter `invalid_payload` (as SpaceMolt answers), and an unknown tool a
// real MCP error. No readOnlyHint annotations: SpaceMolt sends none a client can rely on.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../shared/index.js';
import { UnknownToolError, type Face } from './faces/face.js';
import { GameSession, type SimHost } from './session.js';

export const SERVER_NAME = 'minimolt';
export const SERVER_VERSION = '0.2.0';

export interface McpSession {
  server: Server;
  game: GameSession;
}

export function createMcpSession(options: { host: SimHost; logger: Logger; face: Face; address: string }): McpSession {
  const game = new GameSession(options.host, options.face, options.address);
  const server = new Server(
    { name: SERVER_NAME, version: SERVER_VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: options.face.instructions },
  );
  const tools = options.face.tools.map((tool) => ({ ...tool }));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
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
