// Test helpers for minimolt's MCP faces: an SDK client over the in-memory transport, readers for SpaceMolt's results
// (`Error: code: message`; rate limits and pending actions as JSON text with `code`; the flat v1 face's JSON answers),
// and a call that carries the v1 greeting's session_id as SpaceMolt clients do.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Minimolt } from '../../../internal/sim/index.js';
import type { FaceOptions } from '../../../internal/sim/index.js';

export type Result = {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
  structuredContent?: Record<string, any>;
};
export type Call = (name: string, args?: Record<string, unknown>) => Promise<Result>;

export function textOf(result: Result): string {
  return result.content[0]?.text ?? '';
}

/** The error code a result's text carries, or undefined for a success. */
export function codeOf(result: Result): string | undefined {
  if (!result.isError) return undefined;
  const text = textOf(result);
  if (text.startsWith('{')) return (JSON.parse(text) as { code: string }).code;
  return /^Error: ([a-z_]+): /.exec(text)?.[1];
}

export function retryAfterOf(result: Result): number | undefined {
  const text = textOf(result);
  return text.startsWith('{') ? (JSON.parse(text) as { retry_after?: number }).retry_after : undefined;
}

/** A v1 answer's JSON (the flat face answers JSON text, as the real legacy /mcp does). */
export function jsonOf(result: Result): Record<string, any> {
  return JSON.parse(textOf(result)) as Record<string, any>;
}

/** A register greeting's password: 64 hex, in the v1 JSON's `password` or the v2 text's labelled `Password:` line
 * (the session id is 64 hex too, and is not the password). */
export function passwordOf(result: Result): string {
  const text = textOf(result);
  const password = text.startsWith('{')
    ? /^[0-9a-f]{64}$/.exec(String(jsonOf(result).password))?.[0]
    : /^Password: ([0-9a-f]{64})$/m.exec(text)?.[1];
  if (!password) throw new Error(`no 64-hex password in ${text}`);
  return password;
}

/** The session_id of a v1 login or register answer (JSON): 64 hex. */
export function sessionIdOf(result: Result): string {
  const id = /^[0-9a-f]{64}$/.exec(String(jsonOf(result).session_id))?.[0];
  if (!id) throw new Error(`no 64-hex session_id in ${textOf(result)}`);
  return id;
}

/**
 * A call on the flat v1 face as SpaceMolt clients make it: every call after a successful login or register carries
 * that greeting's session_id (the face answers session_required without it). A session_id given in the args is sent
 * as given.
 */
export function carrySession(call: Call): Call {
  let sessionId: string | undefined;
  return async (name, args = {}) => {
    const greeting = name === 'register' || name === 'login';
    const carried =
      greeting || sessionId === undefined || 'session_id' in args ? args : { ...args, session_id: sessionId };
    const result = await call(name, carried);
    if (greeting && !result.isError) sessionId = sessionIdOf(result);
    return result;
  };
}

/** An SDK client on a face; on v1 its calls carry the session_id (carrySession). */
export async function connectClient(sim: Minimolt, options: FaceOptions = {}): Promise<{ client: Client; call: Call }> {
  const client = new Client({ name: 'sim-test', version: '1' });
  await client.connect(await sim.connect(options));
  const call: Call = async (name, args = {}) => (await client.callTool({ name, arguments: args })) as Result;
  return { client, call: options.face === 'v1' ? carrySession(call) : call };
}
