// The words of an autoplay turn: the goal, the person's orders, the game's events since the last turn, and the ask to
// act now. What the captain reads each turn, kept apart from the loop that paces the turns.

export const DEFAULT_GOAL = 'grow your net worth: mine, trade and stay alive';

export function autoplayPrompt(options: { turn: number; goal: string; orders: string[]; events?: string }): string {
  const lines = [`Autoplay turn ${options.turn}. Goal: ${options.goal}.`];
  if (options.orders.length > 0)
    lines.push(`Orders from your commander (the person at the keyboard): ${options.orders.join(' / ')}`);
  if (options.events) lines.push(options.events);
  lines.push('Play on: act now (one action per tick), then answer with one line saying what you did.');
  return lines.join('\n');
}
