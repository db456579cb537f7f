// The context a stored model request stands for. Most requests hold every message as it was sent; a request of a
// captain handed only the latest turns (the built-in autopilot) holds its system message and a recipe, and the rest
// is built again from the session's transcript, as the context builder gave it that round (rebuildContext).
import { rebuildContext, transcriptPositions } from '../llm/index.js';
import type { Message } from '../shared/index.js';
import type { StoredRequest, Store } from '../store/index.js';

/** Reads a session's stored requests as contexts; the transcript is read once, at the first request with a recipe. */
export function requestContexts(
  store: Pick<Store, 'messages'>,
  sessionId: string,
): (stored: StoredRequest) => Promise<Message[]> {
  let read: Promise<{ transcript: Message[]; positions: Map<string, number> }> | undefined;
  return async (stored) => {
    const system = stored.messages[0];
    if (!stored.recipe || !system) return stored.messages;
    read ??= store
      .messages(sessionId)
      .then((transcript) => ({ transcript, positions: transcriptPositions(transcript) }));
    return rebuildContext({ ...(await read), system, recipe: stored.recipe, tools: stored.tools });
  };
}
