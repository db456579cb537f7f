// Token estimates (and, re-exported, head+tail truncation): the cheap arithmetic the context builder runs every round.
// Estimates are chars/4 — close enough to decide how far back the window reaches, and O(1) per message. An image whose
// bytes a message still carries (only the current turn's do: older turns are rendered without parts) counts as
// MODEL_IMAGE_TOKENS, whether or not this model is shown it: an overestimate for text-only models, never an under one.
import { MODEL_IMAGE_TOKENS, type Message } from '../shared/index.js';

/** Per-message overhead (role, separators) that chat formats add. */
const MESSAGE_OVERHEAD = 4;

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function estimateMessageTokens(message: Message): number {
  let chars = message.content.length;
  if (message.toolCalls) {
    for (const call of message.toolCalls) chars += call.name.length + call.arguments.length + call.id.length + 8;
  }
  if (message.toolCallId) chars += message.toolCallId.length;
  let images = 0;
  for (const part of message.parts ?? []) {
    if (part.type === 'image' && part.data) images += 1;
  }
  return Math.ceil(chars / 4) + MESSAGE_OVERHEAD + images * MODEL_IMAGE_TOKENS;
}

export function estimateTokens(messages: Message[]): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

// Head and tail with a marker (rule 4) lives in shared: the game layer and the provider bound what comes in with it too.
export { truncateHeadTail } from '../shared/index.js';
