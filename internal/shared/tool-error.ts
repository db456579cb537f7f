// What a failed tool result says about itself once stored: its error code, read in one place for the autopilot,
// lessons, reports and benchmark logs, and the words of the answer given to a call a turn was cut off before.
import { z } from 'zod';
import { isRecord } from './json.js';
import type { Message } from './types.js';

/** The error the game layer keeps with a failed call's message (`data.error`); the game domain's observation
 * carries it too. Defined here so reading a stored code needs no knowledge of the game. */
export const toolErrorSchema = z.object({
  code: z.string(),
  message: z.string().catch(''),
  retry_after: z.number().optional(),
});

/** The answer stored for a call the turn was cut off before it finished (rule 9): by the loop on abort and in what
 * it sends, by the store when a session resumes after a crash. */
export const CANCELLED_RESULT_TEXT =
  'cancelled: the turn was interrupted before this call finished; nothing more is known';

// "no_fuel: …", "Error: no_fuel: …", "[no_fuel]: …".
const PREFIX = /^(?:error:\s*)?\[?([a-z][a-z0-9_]{1,40})\]?:/i;
const JSON_CODE = /"error"\s*:\s*"([a-z0-9_]+)"/i;
// Skipper's own wordings, from before it stored its own codes.
const OWN_WORDS: ReadonlyArray<[RegExp, string]> = [
  [/^unknown tool\b|has no name/, 'unknown_tool'],
  [/arguments are not valid JSON|arguments must be a JSON object/, 'invalid_arguments'],
  // Local tools (captain memory): "remember: invalid arguments — …".
  [/^[a-z_]+: invalid arguments\b/, 'invalid_params'],
  [/^forget: there is no memory\b/, 'not_found'],
  [/\bcancell?ed\b/i, 'cancelled'],
];

/** `data.error.code` when the data carry an error of the kept shape. */
function keptErrorCode(data: unknown): string | undefined {
  if (!isRecord(data)) return undefined;
  const parsed = toolErrorSchema.safeParse(data.error);
  return parsed.success ? parsed.data.code : undefined;
}

/**
 * The error code of a failed tool message. The game layer and the loop keep it with the message (`data.error.code`,
 * the code the game layer worked out for the call); a message stored before they did, or by a game that names no
 * code, is read from its text: a `code:` prefix (never the tool's own name), JSON `{"error": "code"}`, Skipper's own
 * wordings. "error" when nothing says more.
 */
export function errorCodeOf(message: Pick<Message, 'content' | 'data' | 'toolName'>): string {
  const kept = keptErrorCode(message.data);
  if (kept) return kept;
  const text = message.content.trim();
  const prefix = PREFIX.exec(text)?.[1]?.toLowerCase();
  if (prefix && prefix !== 'error' && prefix !== message.toolName) return prefix;
  const json = JSON_CODE.exec(text)?.[1]?.toLowerCase();
  if (json && json !== 'error') return json;
  return OWN_WORDS.find(([pattern]) => pattern.test(text))?.[1] ?? 'error';
}
