// Pieces both built-in providers share: finding the current turn in a context, making tool-call ids that never
// collide with ones already in the conversation, and shaping a reply exactly like a model's.
import type { CompletionRequest, CompletionResponse, Message, ToolCall } from '../../shared/index.js';
import { emptyUsage, throwIfAborted } from '../../shared/index.js';
import type { Rng } from '../../spacemolt/index.js';

/** The messages after the last user message (the turn in progress). */
export function currentTurn(messages: readonly Message[]): Message[] {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    if (messages[i]?.role === 'user') return messages.slice(i + 1);
  }
  return messages.filter((m) => m.role !== 'system');
}

/** Makes `call_…` ids from the seeded generator, skipping any id already present in the context. */
export class CallIds {
  private readonly rng: Rng;
  constructor(rng: Rng) {
    this.rng = rng;
  }

  make(messages: readonly Message[], count: number): string[] {
    const used = new Set<string>();
    for (const message of messages) {
      for (const call of message.toolCalls ?? []) used.add(call.id);
      if (message.toolCallId) used.add(message.toolCallId);
    }
    const ids: string[] = [];
    while (ids.length < count) {
      const id = `call_${this.rng.hex(16)}`;
      if (!used.has(id)) {
        used.add(id);
        ids.push(id);
      }
    }
    return ids;
  }
}

/** A reply shaped like a model's: the one-line text goes to onDelta too; usage is zero. */
export function reply(options: {
  request: CompletionRequest;
  model: string;
  content: string;
  toolCalls: ToolCall[];
}): CompletionResponse {
  const { request, model, content, toolCalls } = options;
  throwIfAborted(request.signal);
  if (content) request.onDelta?.({ type: 'text', text: content });
  return {
    message: { content, toolCalls },
    usage: emptyUsage(),
    finishReason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
    model,
  };
}

/** The tool messages answering the last assistant message of `turn`. */
export function lastRoundResults(turn: readonly Message[]): Message[] {
  let i = turn.length - 1;
  while (i >= 0 && turn[i]?.role === 'tool') i -= 1;
  return turn.slice(i + 1).filter((m) => m.role === 'tool');
}
