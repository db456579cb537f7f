// The session's conversation in memory: one mutex-guarded append path (rule 2) that persists first (rule 13), then
// makes the message visible. Messages are frozen once stored, their tool calls and data too, so nothing downstream
// can edit history by accident.
import { Mutex } from 'async-mutex';
import { randomUUID } from 'node:crypto';
import type { Message, NewMessage, ToolCall } from '../shared/index.js';
import { deepFreeze } from '../shared/index.js';

export interface History {
  append(message: NewMessage): Promise<Message>;
  /** A shallow copy of the message list, taken afresh each round (rule 1). */
  snapshot(): Message[];
  readonly length: number;
}

export interface HistoryOptions {
  initial?: Message[];
  /** Called under the lock before the message becomes visible; a throw aborts the append (storage is fatal). */
  persist?: (message: Message) => void | Promise<void>;
  newId?: () => string;
  now?: () => number;
  /**
   * Keep at most about this many messages in memory (the store keeps them all). Older whole turns are let go when a
   * new turn starts — never in the middle of one, so a turn's indices stay stable — which keeps a session of many
   * thousands of turns flat in memory and per-round cost. Default: unbounded.
   */
  window?: number;
}

export function createHistory(options: HistoryOptions = {}): History {
  const mutex = new Mutex();
  const messages: Message[] = (options.initial ?? []).map((message) => freezeMessage({ ...message }));
  const newId = options.newId ?? randomUUID;
  const now = options.now ?? Date.now;
  return {
    append(message: NewMessage): Promise<Message> {
      return mutex.runExclusive(async () => {
        const stored = freezeMessage({ ...message, id: newId(), createdAt: now() });
        if (options.persist) await options.persist(stored);
        if (stored.role === 'user' && options.window !== undefined) trimToWindow(messages, options.window);
        messages.push(stored);
        return stored;
      });
    },
    snapshot: () => messages.slice(),
    get length(): number {
      return messages.length;
    },
  };
}

/** Drops the oldest whole turns once the list outgrows the window by a quarter (so trimming is rare). */
export function trimToWindow(messages: Message[], window: number): void {
  if (messages.length <= window + Math.ceil(window / 4)) return;
  // Cut at a user message (a turn start) so no tool result is parted from its call.
  for (let index = messages.length - window; index < messages.length; index += 1) {
    if (messages[index]?.role === 'user') {
      messages.splice(0, index);
      return;
    }
  }
}

function freezeMessage(message: Message): Message {
  // Rule 5: an assistant message always carries a list of tool calls, empty for text-only replies.
  const calls = message.toolCalls ?? (message.role === 'assistant' ? [] : undefined);
  if (calls) message.toolCalls = Object.freeze(calls.map((call) => Object.freeze({ ...call }))) as ToolCall[];
  // The data too: a captain handed the stored messages themselves (contextOnDemand) cannot change them either.
  deepFreeze(message.data);
  return Object.freeze(message);
}
