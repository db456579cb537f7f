// The check the MCP client runs on every tools/call answer, with a short path for the usual one. The SDK parses each
// answer with zod's CallToolResultSchema: in a profile of a fleet (50 captains) that parse was ~3% of the JavaScript
// thread and 3% of what it allocated (a side-by-side pair of fleets then measured no difference beyond its noise).
// An answer that is only text parts (and maybe the isError flag) is what the schema would hand back unchanged, so it
// passes as it is; any other answer (another part kind, annotations, structuredContent, _meta, a malformed one) is
// left to the schema, which reads it as before. Imported with the SDK client, when a connection opens.
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

/** What the SDK asks of a result schema it is handed: a zod 3 style safeParse. */
export interface CallResultCheck {
  safeParse(data: unknown): { success: true; data: unknown } | { success: false; error: unknown };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A text part with nothing else: `type` "text", a string `text`. */
function isPlainTextPart(part: unknown): boolean {
  if (!isRecord(part) || part.type !== 'text' || typeof part.text !== 'string') return false;
  for (const key in part) if (key !== 'type' && key !== 'text') return false;
  return true;
}

/** An answer the schema would return unchanged: `content` a list of plain text parts, `isError` absent or boolean,
 * and no other field. */
export function isPlainCallResult(data: unknown): boolean {
  if (!isRecord(data) || !Array.isArray(data.content)) return false;
  if (data.isError !== undefined && typeof data.isError !== 'boolean') return false;
  for (const key in data) if (key !== 'content' && key !== 'isError') return false;
  for (const part of data.content) if (!isPlainTextPart(part)) return false;
  return true;
}

/** Hand to `client.callTool` as its result schema. */
export const callResultCheck: CallResultCheck = {
  safeParse(data) {
    if (isPlainCallResult(data)) return { success: true, data };
    const parsed = CallToolResultSchema.safeParse(data);
    return parsed.success ? { success: true, data: parsed.data } : { success: false, error: parsed.error };
  },
};
