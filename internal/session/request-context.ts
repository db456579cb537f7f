// The context a stored model request stands for. Most requests hold every message as it was sent; a request of a
// captain handed only the latest turns (the built-in autopilot) holds its system message and a recipe, and the rest
// is built again from the session's transcript, as the context builder gave it that round (rebuildContext).
import { rebuildContext } from '../llm/index.js';
import type { Message } from '../shared/index.js';
import type { StoredRequest, Store } from '../store/index.js';

/** Reads a session's stored requests as contexts; the transcript is read once, at the first request with a recipe. */
export function requestContexts(store: Store, sessionId: string): (stored: StoredRequest) => Message[] {
  let transcript: Message[] | undefined;
  return (stored) => {
    if (!stored.recipe) return stored.messages;
    transcript ??= [...store.iterateMessages(sessionId)];
    const system = stored.messages[0];
    if (!system) return stored.messages;
    return rebuildContext({ transcript, system, recipe: stored.recipe, tools: stored.tools });
  };
}
