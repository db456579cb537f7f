// The context a stored model request stands for. Most requests hold every message as it was sent; a request of a
// captain handed only the latest turns (the built-in autopilot) holds its system message and a recipe, and the rest
// is built again from the session's transcript, as the context builder gave it that round (rebuildContext).
import { rebuildContext, rebuildLatestTurns, transcriptPositions } from '../llm/index.js';
import type { Message } from '../shared/index.js';
import type { StoredRequest, Store } from '../store/index.js';

/**
 * Reads a session's stored requests as contexts; the transcript is read once, at the first request with a recipe.
 * With `latestTurns`, a request with a recipe is read as the captain itself was handed it (the latest turns), when the
 * recipe says where they began (requests stored before it did are read whole).
 */
export function requestContexts(
  store: Pick<Store, 'messages'>,
  sessionId: string,
  options: { latestTurns?: boolean } = {},
): (stored: StoredRequest) => Promise<Message[]> {
  let read: Promise<{ transcript: Message[]; positions: Map<string, number> }> | undefined;
  return async (stored) => {
    const system = stored.messages[0];
    if (!stored.recipe || !system) return stored.messages;
    read ??= store
      .messages(sessionId)
      .then((transcript) => ({ transcript, positions: transcriptPositions(transcript) }));
    const source = { ...(await read), system, recipe: stored.recipe };
    const latest = options.latestTurns ? rebuildLatestTurns(source) : undefined;
    return latest ?? rebuildContext({ ...source, tools: stored.tools });
  };
}
