// The words of an autoplay turn: the goal, the person's orders, the game's events since the last turn, and the ask to
// act now. What the captain reads each turn, kept apart from the loop that paces the turns.
import { HANDOFF_REQUEST } from '../llm/memory/index.js';

export const DEFAULT_GOAL = 'grow your net worth: mine, trade and stay alive';

/**
 * `goalInSystem`: the system prompt already says the goal (`Your goal: …`, every request carries it), so the turn does
 * not say it again — ~15 o200k tokens per turn message, each kept in context for several turns (issue 50).
 */
export function autoplayPrompt(options: {
  turn: number;
  goal: string;
  orders: string[];
  events?: string;
  goalInSystem?: boolean;
}): string {
  const lines = [
    options.goalInSystem ? `Autoplay turn ${options.turn}.` : `Autoplay turn ${options.turn}. Goal: ${options.goal}.`,
  ];
  if (options.orders.length > 0)
    lines.push(`Orders from your commander (the person at the keyboard): ${options.orders.join(' / ')}`);
  if (options.events) lines.push(options.events);
  lines.push('Play on: act now (one action per tick), then answer with one line saying what you did.');
  return lines.join('\n');
}

/** Whether a stored `user` message is a prompt Skipper wrote (autoplay's, the planner's wake-up, the handoff request),
 * not a person's line: the page and the replays label it as Skipper's. */
export function isSkipperPrompt(text: string): boolean {
  return /^(Autoplay turn \d+\.(\s|$)|Planner check-in: )/.test(text) || text === HANDOFF_REQUEST;
}
