// `skipper doctor` logged in: asks each free query the autopilot uses once, in order, through the game connection (so
// within its query budget, and captured by --capture like any Game.call), and hands every answer — as the game gave
// it, the text --capture keeps, not the one labelled for a model — to the game layer's first-contact readers. view_market only when the status read says docked; get_notifications only as a peek
// (clear=false), never consuming the player's events — and not at all when the tool cannot be told to peek.
import {
  marketQuestion,
  notAsked,
  readAnswer,
  CONTACT_QUERIES,
  type AnswerReading,
  type ContactAnswer,
  type ContactQuery,
  type GameConnection,
} from '../game/index.js';
import type { ToolSpec } from '../shared/index.js';

/** The call for one query on this game, or why it is not asked. */
function callFor(
  conn: GameConnection,
  query: ContactQuery,
  tools: readonly ToolSpec[],
): { name: string; args: Record<string, unknown> } | { reason: string } {
  const profile = conn.profile();
  if (query !== 'get_notifications')
    return profile.callFor(query) ?? { reason: 'the game has no such tool: not asked' };
  const call = profile.callFor(query, { clear: false, limit: 20 });
  if (!call) return { reason: 'the game has no such tool: not asked' };
  const declared = tools.find((tool) => tool.name === call.name)?.inputSchema.properties ?? {};
  // Asking without `clear: false` may empty the player's queue: a check must not eat the events it looks at.
  if (!('clear' in declared)) return { reason: 'the tool cannot be told clear=false (a peek): not asked' };
  const args = Object.fromEntries(Object.entries(call.args).filter(([name]) => name === 'action' || name in declared));
  return { name: call.name, args };
}

/** Every query asked (at most once each) and read. `ask` makes one call and gives the game's own answer. */
export async function askContact(
  conn: GameConnection,
  ask: (name: string, args: Record<string, unknown>) => Promise<ContactAnswer>,
): Promise<AnswerReading[]> {
  const tools = await conn.listTools();
  const readings: AnswerReading[] = [];
  for (const query of CONTACT_QUERIES) {
    if (query === 'view_market') {
      const question = marketQuestion(readings.find((reading) => reading.query === 'get_status'));
      if (!question.ask) {
        readings.push(notAsked(query, question.reason));
        continue;
      }
    }
    const call = callFor(conn, query, tools);
    if ('reason' in call) {
      readings.push(notAsked(query, call.reason));
      continue;
    }
    readings.push(readAnswer(query, await ask(call.name, call.args)));
  }
  return readings;
}
