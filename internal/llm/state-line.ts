// The "Current game state" line of the system prompt. Built from the structured dashboard when there is one (the game
// layer's stateSummary), so no free text from the game (chat, other players' words) is ever lifted into the system
// prompt (rule 15).
import { stateSummary } from '../game/index.js';
import type { Message } from '../shared/index.js';
import { truncateHeadTail } from './tokens.js';

const STATE_CHARS = 600;

export function stateLine(message: Message): string {
  const label = message.toolName ?? 'tool';
  const summary = stateSummary(message.data);
  const body = truncateHeadTail(summary ?? withoutUntrusted(message.content), STATE_CHARS);
  return `Current game state (as this turn began, from your latest ${label} result): ${body}`;
}

function withoutUntrusted(content: string): string {
  return content.replace(/<untrusted[\s\S]*?(<\/untrusted>|$)/g, '[untrusted text omitted]');
}
