// Rule 9: a transcript cut off mid-turn (Ctrl+C, crash, kill -9) must still be valid to send. Every assistant tool
// call without a tool message answering it gets a synthetic `cancelled` result.
import { CANCELLED_RESULT_TEXT, type Message, type NewMessage } from '../shared/index.js';

/**
 * The tool messages to append so that every tool call has a result, in call order. Pure: the input is not changed.
 * A result counts when a tool message with the call's id follows the assistant message that made it.
 * Dangling calls only ever sit at the tail (every abort and resume repairs), so appending the results keeps the
 * transcript valid to send.
 */
export function repairDanglingToolCalls(messages: readonly Message[]): NewMessage[] {
  // Calls still waiting for a result, in the order they were made (Map keeps insertion order).
  const pending = new Map<string, { name: string; turn?: number; round?: number }>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) {
        if (!pending.has(call.id)) pending.set(call.id, { name: call.name, turn: message.turn, round: message.round });
      }
    } else if (message.role === 'tool' && message.toolCallId !== undefined) {
      pending.delete(message.toolCallId);
    }
  }
  return [...pending].map(([id, call]): NewMessage => {
    const repair: NewMessage = {
      role: 'tool',
      content: CANCELLED_RESULT_TEXT,
      toolCallId: id,
      toolName: call.name,
      isError: true,
    };
    if (call.turn !== undefined) repair.turn = call.turn;
    if (call.round !== undefined) repair.round = call.round;
    return repair;
  });
}
