// One MCP server per session, over any transport (in-memory or Streamable HTTP), speaking one face (v1 flat or v2
// grouped). We use the SDK's low-level Server so argument checks stay ours: an ill-typed call is an `invalid_params`
// tool result naming the field, an unknown parameter `invalid_payload` (as SpaceMolt answers), and an unknown tool a
// real MCP error. No readOnlyHint annotations: SpaceMolt sends none a client can rely on.
// Protocol errors go out as JSON-RPC errors with plain messages: the SDK's McpError puts "MCP error <code>: " in its
// message and clients add it again when they read the error, so it is taken off on the way out (connect()).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, ListToolsRequestSchema, McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Logger } from '../shared/index.js';
import { UnknownToolError, type Face } from './faces/face.js';
import { GameSession, type SimHost } from './session.js';

export const SERVER_NAME = 'minimolt';
export const SERVER_VERSION = '0.2.0';

export interface McpSession {
  server: Server;
  game: GameSession;
  /** Connects the server to a transport whose error messages go out plain. */
  connect(transport: Transport): Promise<void>;
}

/**
 * tools/call as the SDK's Protocol sees it: any params. The SDK's Server then checks them against CallToolRequestSchema
 * and answers Invalid params (-32602); with the strict schema here, a bad call failed parsing first and was answered
 * Internal error (-32603).
 */
const AnyToolCall = z.object({ method: z.literal('tools/call'), params: z.unknown() });
const ToolCallParams = z
  .object({
    name: z.string(),
    arguments: z.record(z.string(), z.unknown()).optional(),
    _meta: z
      .object({ progressToken: z.union([z.string(), z.number()]).optional() })
      .loose()
      .optional(),
  })
  .loose();

const SDK_PREFIX = /^MCP error -?\d+: /;

/** The message without the SDK's "MCP error <code>: " prefix (once: the SDK adds it once). */
export function plainError(message: JSONRPCMessage): JSONRPCMessage {
  const error = (message as { error?: { message?: unknown } }).error;
  if (!error || typeof error.message !== 'string' || !SDK_PREFIX.test(error.message)) return message;
  return { ...message, error: { ...error, message: error.message.replace(SDK_PREFIX, '') } } as JSONRPCMessage;
}

export function createMcpSession(options: { host: SimHost; logger: Logger; face: Face; address: string }): McpSession {
  const game = new GameSession(options.host, options.face, options.address);
  const server = new Server(
    { name: SERVER_NAME, version: SERVER_VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: options.face.instructions },
  );
  const tools = options.face.tools.map((tool) => ({ ...tool }));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(AnyToolCall, async (request, extra) => {
    const checked = ToolCallParams.safeParse(request.params);
    if (!checked.success)
      throw new McpError(
        ErrorCode.InvalidParams,
        `invalid tools/call params: ${checked.error.issues.map((issue) => `${issue.path.join('.') || 'params'}: ${issue.message}`).join('; ')}`,
      );
    const params = checked.data;
    const token = params._meta?.progressToken;
    const onProgress =
      token === undefined
        ? undefined
        : (progress: number, total: number, message: string): void => {
            void extra
              .sendNotification({
                method: 'notifications/progress',
                params: { progressToken: token, progress, total, message },
              })
              .catch(() => {}); // the client may be gone; the action still resolves
          };
    try {
      return await game.call(params.name, params.arguments, onProgress);
    } catch (error) {
      if (error instanceof UnknownToolError) throw new McpError(ErrorCode.InvalidParams, error.message);
      options.logger.error({ err: error, tool: params.name }, 'tool call failed');
      throw new McpError(ErrorCode.InternalError, 'internal error in minimolt: see the server log');
    }
  });
  server.onclose = () => game.close();
  const connect = async (transport: Transport): Promise<void> => {
    const send = transport.send.bind(transport);
    transport.send = (message, sendOptions) => send(plainError(message), sendOptions);
    await server.connect(transport);
  };
  return { server, game, connect };
}
