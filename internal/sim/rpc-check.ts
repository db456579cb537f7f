// Requests the MCP SDK would leave unanswered, answered at the transport instead. The SDK's Protocol drops a message
// that fails its strict request schema (an id of 1.5 or 1e400, an unknown member, a `_meta` that is not an object)
// without a word, so the client waits and its POST keeps the session busy; and its tools/call check answers a missing
// `params` with Internal error and a zod dump. Every request with an id gets an answer here, with the JSON-RPC code
// that fits and a one-line message; the id is echoed when it can be (null otherwise, as JSON-RPC 2.0 says).
import { JSONRPCRequestSchema } from '@modelcontextprotocol/sdk/types.js';

type Json = Record<string, unknown>;

export const RpcErrorCode = { parseError: -32700, invalidRequest: -32600, invalidParams: -32602 } as const;

export function rpcErrorResponse(id: string | number | null, code: number, message: string): Json {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** The id as an answer can carry it: a string, or a number JSON writes back as it was read; otherwise null. */
export function answerableId(id: unknown): string | number | null {
  if (typeof id === 'string') return id;
  if (typeof id === 'number' && Number.isFinite(id) && Math.abs(id) <= Number.MAX_SAFE_INTEGER) return id;
  return null;
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What is wrong with the id, or undefined when the SDK takes it (a string or a whole number). */
function idProblem(message: Json): Json | undefined {
  const id = answerableId(message.id);
  if (id === null)
    return rpcErrorResponse(
      null,
      RpcErrorCode.invalidRequest,
      'invalid request: the id cannot be answered as sent (too large or not finite): use a string or a whole number',
    );
  if (typeof id === 'number' && !Number.isInteger(id))
    return rpcErrorResponse(
      id,
      RpcErrorCode.invalidRequest,
      `invalid request: id ${id} is not a whole number (MCP request ids are strings or whole numbers)`,
    );
  return undefined;
}

/**
 * The error answer to a request (a message with a method and a string or number id) that the SDK would not answer
 * properly, or null when the SDK will.
 */
export function refuseRequest(message: Json): Json | null {
  const wrongId = idProblem(message);
  if (wrongId) return wrongId;
  const id = message.id as string | number;
  const params = message.params;
  if (params !== undefined && !isObject(params))
    return rpcErrorResponse(id, RpcErrorCode.invalidParams, 'invalid params: params must be an object');
  if (message.method === 'tools/call' && params === undefined)
    return rpcErrorResponse(id, RpcErrorCode.invalidParams, 'params: required (name and arguments)');
  const checked = JSONRPCRequestSchema.safeParse(message);
  if (checked.success) return null;
  const issue = checked.error.issues[0];
  const inParams = issue?.path[0] === 'params';
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return rpcErrorResponse(
    id,
    inParams ? RpcErrorCode.invalidParams : RpcErrorCode.invalidRequest,
    `${inParams ? 'invalid params' : 'invalid request'}: ${where}${issue?.message ?? 'not a JSON-RPC request'}`.replace(
      /\s+/g,
      ' ',
    ),
  );
}
