// Token estimates and head+tail truncation: the cheap arithmetic the context builder runs every round.
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

/**
 * Keeps the first ~1/3 and the last ~2/3 of `maxChars` with a marker in between (rule 4): tool results end with
 * what matters (totals, errors, warnings), so the tail gets the larger share. Never splits a surrogate pair.
 */
export function truncateHeadTail(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const markerFor = (omitted: number): string => `\n[… ${formatCount(omitted)} chars omitted …]\n`;
  // The marker length depends on the omitted count; the count's width is bounded by the text length's width.
  const markerLength = markerFor(text.length).length;
  const available = Math.max(0, maxChars - markerLength);
  let head = Math.floor(available / 3);
  let tailStart = text.length - (available - head);
  if (head > 0 && isHighSurrogate(text.charCodeAt(head - 1))) head -= 1;
  if (tailStart < text.length && isLowSurrogate(text.charCodeAt(tailStart))) tailStart += 1;
  return text.slice(0, head) + markerFor(tailStart - head) + text.slice(tailStart);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
