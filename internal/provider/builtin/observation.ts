// Reading one tool message as the game layer left it: which op it answered (the observation's `op`, else the
// assistant's call for that id read back through the faces table), the GameObservation in `data`, and its error.
// SpaceMolt sends text only, so `data` is whatever the game layer parsed; anything may be missing. The data is
// checked once, by the shared observationOf, and read typed from here on.
import type { Message, ToolCall } from '../../shared/index.js';
import type { GameObservation, GameOp, OpArgs } from '../../spacemolt/index.js';
import { errorCodeOf } from '../../shared/index.js';
import { observationOf } from '../../spacemolt/index.js';
import { opOfCall, parseArgs } from './face.js';

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
  const data = observationOf(message.data);
  const call = message.toolCallId === undefined ? undefined : calls.get(message.toolCallId);
  const asked = call ? opOfCall(call.name, parseArgs(call)) : undefined;
  return { message, op: data.op ?? asked?.op, args: asked?.args ?? {}, data, at: 0 };
}

/** The game's error code of a failed result (the code the game layer kept with it; see errorCodeOf). */
export function errorCode(message: Message): string | undefined {
  return message.isError ? errorCodeOf(message) : undefined;
}

/** The game's own words for a failure, on one line (quoted to the person when the autopilot gives up). */
export function errorMessage(message: Message): string {
  // The text is what the game (and the game layer, which names Skipper's flags there) said; the parsed message is
  // the fallback for a result whose text was lost.
  const text = message.content.trim() || (observationOf(message.data).error?.message ?? '');
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}
