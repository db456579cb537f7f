// Test helpers for minimolt's MCP faces: an SDK client over the in-memory transport, and readers for SpaceMolt's
// text results (`Error: code: message`; rate limits and pending actions as JSON text with `code`).
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

/** The labelled password line of a register greeting (the Session ID is 64 hex too, and is not the password). */
export function passwordOf(result: Result): string {
  const password = /^Password: ([0-9a-f]{64})$/m.exec(textOf(result))?.[1];
  if (!password) throw new Error(`no Password: line in ${textOf(result)}`);
  return password;
}

export async function connectClient(sim: Minimolt, options: FaceOptions = {}): Promise<{ client: Client; call: Call }> {
  const client = new Client({ name: 'sim-test', version: '1' });
  await client.connect(await sim.connect(options));
  return { client, call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as Result };
}
