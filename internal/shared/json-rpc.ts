// The shape of a JSON-RPC 2.0 message, checked cheaply: minimolt's server reads every POST with it, and the game
// client every answer (the MCP SDK's full schema stays for whatever fails this check).

const isId = (id: unknown): boolean => typeof id === 'string' || typeof id === 'number';

/**
 * A request, notification or response. An id that is there must be a string or a number: a request with any other
 * id would otherwise pass as a notification, unanswered.
 */
export function isJsonRpcMessage(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return false;
  if ('id' in message && !isId(message.id)) return false;
  if (typeof message.method === 'string') return true;
  return isId(message.id) && ('result' in message || 'error' in message);
}

/** A request: a method and an id (a string or a number); a notification has no id. */
export function isJsonRpcRequest(message: Record<string, unknown>): boolean {
  return typeof message.method === 'string' && isId(message.id);
}
