// Mirrors the session handoff into the game's captain's log when the game has one, so the captain finds it in-game
// too. The game connection knows how its game spells the log (a flat `captains_log_add(entry)` tool, or an
// action of a grouped tool); a bare Game falls back to the flat
// tool. Refuses secrets (the server counts any log text holding the password as a leak).
import type { Game, ToolSpec } from '../../shared/index.js';
import { containsSecret } from './secrets.js';

export const CAPTAINS_LOG_TOOL = 'captains_log_add';
export const CAPTAINS_LOG_MAX_BYTES = 30_000;

export type MirrorResult = { mirrored: true } | { mirrored: false; reason: string };

/** Cuts to at most `max` UTF-8 bytes without splitting a character. */
export function clipBytes(text: string, max: number): string {
  if (Buffer.byteLength(text, 'utf8') <= max) return text;
  let end = Math.min(text.length, max);
  while (end > 0 && Buffer.byteLength(text.slice(0, end), 'utf8') > max - 3) end -= 1;
  // Do not leave half a surrogate pair behind.
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

export async function mirrorHandoff(
  game: Pick<Game, 'call' | 'writeLog'>,
  tools: readonly ToolSpec[],
  text: string,
  options: { secrets?: readonly string[]; signal?: AbortSignal } = {},
): Promise<MirrorResult> {
  const noLog: MirrorResult = { mirrored: false, reason: 'the game has no captain’s log' };
  if (!game.writeLog && !tools.some((tool) => tool.name === CAPTAINS_LOG_TOOL)) return noLog;
  const entry = text.trim();
  if (entry === '') return { mirrored: false, reason: 'the handoff is empty' };
  if (containsSecret(entry, options.secrets ?? []))
    return { mirrored: false, reason: 'the handoff contains a secret; not mirrored' };
  const clipped = clipBytes(entry, CAPTAINS_LOG_MAX_BYTES);
  const callOptions = options.signal ? { signal: options.signal } : {};
  const result = game.writeLog
    ? await game.writeLog(clipped, callOptions)
    : await game.call(CAPTAINS_LOG_TOOL, { entry: clipped }, callOptions);
  if (!result) return noLog;
  return result.isError
    ? { mirrored: false, reason: `${CAPTAINS_LOG_TOOL} failed: ${result.text}` }
    : { mirrored: true };
}
