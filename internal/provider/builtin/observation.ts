// Reading one tool message as the game layer left it: which op it answered (the observation's `op`, else the
// assistant's call for that id read back through the faces table), the GameObservation in `data`, and its error.
// SpaceMolt sends text only, so `data` is whatever the game layer parsed; anything may be missing.
import type { GameObservation, GameOp, Message, OpArgs, ToolCall } from '../../shared/index.js';
import { opOfCall, parseArgs } from './face.js';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One tool result with the op it answered and Skipper's arguments of the call that asked for it. */
export interface Observed {
  message: Message;
  op: GameOp | undefined;
  args: OpArgs;
  data: GameObservation;
  /** The autopilot's clock once this result was read. */
  at: number;
}

/** Tool-call id -> call, over a whole context (the calls of earlier rounds answer later results). */
export function callsById(messages: readonly Message[]): Map<string, ToolCall> {
  const calls = new Map<string, ToolCall>();
  for (const message of messages) for (const call of message.toolCalls ?? []) calls.set(call.id, call);
  return calls;
}

export function observe(message: Message, calls: ReadonlyMap<string, ToolCall>): Observed {
  const data: GameObservation = isRecord(message.data) ? (message.data as GameObservation) : {};
  const call = message.toolCallId === undefined ? undefined : calls.get(message.toolCallId);
  const asked = call ? opOfCall(call.name, parseArgs(call)) : undefined;
  return { message, op: data.op ?? asked?.op, args: asked?.args ?? {}, data, at: 0 };
}

/** The game's error code of a failed result: the observation's, else the text's `Error: code:` prefix or JSON. */
export function errorCode(message: Message): string | undefined {
  if (!message.isError) return undefined;
  const data = message.data;
  if (isRecord(data) && isRecord(data.error) && typeof data.error.code === 'string') return data.error.code;
  const text = message.content.trim();
  const prefixed = /^(?:error:\s*)?([a-z][a-z0-9_]*):/i.exec(text);
  if (prefixed?.[1]) return prefixed[1].toLowerCase();
  const json = /"error"\s*:\s*"([a-z0-9_]+)"/i.exec(text);
  return json?.[1] ?? 'error';
}

/** The game's own words for a failure, on one line (quoted to the person when the autopilot gives up). */
export function errorMessage(message: Message): string {
  const data = message.data;
  const worded = isRecord(data) && isRecord(data.error) && typeof data.error.message === 'string' ? data.error.message : '';
  // The text is what the game (and the game layer, which names Skipper's flags there) said; the parsed message is
  // the fallback for a result whose text was lost.
  const text = message.content.trim() || worded;
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}
