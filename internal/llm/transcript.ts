// Pure transcript repair for what is sent (rule 9): every assistant tool call is answered by exactly one tool
// message right after it, and tool messages without their call are dropped. Works on copies the caller owns.
import { CANCELLED_RESULT_TEXT, type Message, type ToolCall } from '../shared/index.js';

export function cancelledResult(call: ToolCall, fields: Partial<Message> = {}): Omit<Message, 'id' | 'createdAt'> {
  return {
    ...fields,
    role: 'tool',
    content: CANCELLED_RESULT_TEXT,
    toolCallId: call.id,
    toolName: call.name,
    isError: true,
  };
}

/** Returns a list where every tool call has one answer; synthetic answers say the call was cancelled. */
export function repairForSend(messages: Message[]): Message[] {
  const out: Message[] = [];
  let index = 0;
  while (index < messages.length) {
    const message = messages[index] as Message;
    index += 1;
    if (message.role === 'tool') continue; // orphan: its call is not right before it
    out.push(message);
    const calls = message.role === 'assistant' ? (message.toolCalls ?? []) : [];
    if (calls.length === 0) continue;
    // The calls not answered yet, in order: a short list (one call or a few), so no map. An id made twice is one
    // call, at its first place, the later one's fields kept.
    const open: ToolCall[] = [];
    for (const call of calls) {
      const same = open.findIndex((other) => other.id === call.id);
      if (same < 0) open.push(call);
      else open[same] = call;
    }
    while (index < messages.length && (messages[index] as Message).role === 'tool') {
      const result = messages[index] as Message;
      index += 1;
      const answered = open.findIndex((call) => call.id === result.toolCallId);
      if (result.toolCallId === undefined || answered < 0) continue;
      open.splice(answered, 1);
      out.push(result);
    }
    for (const call of open) {
      out.push({ ...cancelledResult(call), id: `synthetic-${call.id}`, createdAt: message.createdAt });
    }
  }
  return out;
}
