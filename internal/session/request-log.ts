// Recording each model request as it is sent: a provider wrapper for one turn that hands every CompletionRequest
// (messages and tool list, exactly as given to the provider) to the store, so a counterfactual replay can later ask
// another model the very same questions. The request is serialised before the call (nothing can change it
// meanwhile) and written once the call ends, with how it ended.
import type { CompletionRequest, CompletionResponse, Message, Provider, ToolSpec } from '../shared/index.js';
import type { RequestOutcome, RequestRecordInput } from '../store/index.js';

/** What the wrapper needs from the store; a runner store without it records nothing. */
export interface RequestLogPort {
  recordRequest(row: RequestRecordInput): void;
  /** Each message's JSON text and the tool list's (default: JSON.stringify each; see RequestSerializer). */
  serializeRequest?(messages: readonly Message[], tools: readonly ToolSpec[]): { messages: string[]; tools: string };
}

export interface RecordRequestsOptions {
  /** The runner's store: requests are recorded when it has `recordRequest`. */
  store: object;
  sessionId: string;
  turn: number;
}

function portOf(store: object): RequestLogPort | undefined {
  const candidate = store as Partial<RequestLogPort>;
  return typeof candidate.recordRequest === 'function' ? (candidate as RequestLogPort) : undefined;
}

/**
 * The provider for one turn, recording each request. Rounds are counted the way runTurn counts them: a reply that
 * is not empty ends a round; an empty reply or an error is followed, when at all, by a retry of the same round.
 * Everything else about the provider (id, context window, capabilities, other methods) is the provider's own.
 */
export function recordRequests(provider: Provider, options: RecordRequestsOptions): Provider {
  const port = portOf(options.store);
  if (!port) return provider;
  let round = 1;
  let attempt = 0;
  const complete = async (request: CompletionRequest): Promise<CompletionResponse> => {
    attempt += 1;
    const at = { round, attempt };
    // With a recipe, the system message is kept and the rest is the recipe's to rebuild (CompletionRequest.recipe).
    const sent = request.recipe ? request.messages.slice(0, 1) : request.messages;
    const { messages, tools } = port.serializeRequest
      ? port.serializeRequest(sent, request.tools)
      : { messages: sent.map((message) => JSON.stringify(message)), tools: JSON.stringify(request.tools) };
    const recipe = request.recipe ? { recipe: JSON.stringify(request.recipe) } : {};
    const createdAt = Date.now();
    let outcome: RequestOutcome = 'error';
    let inputs: { inputs: string } | Record<string, never> = {};
    try {
      const response = await provider.complete(request);
      const empty = response.message.content.trim() === '' && response.message.toolCalls.length === 0;
      outcome = empty ? 'empty' : 'reply';
      // What a stateful captain decided on besides the request, kept with it for an exact replay (DecisionInputs).
      if (response.inputs) inputs = { inputs: JSON.stringify(response.inputs) };
      return response;
    } finally {
      if (outcome === 'reply') {
        round += 1;
        attempt = 0;
      }
      try {
        port.recordRequest({
          sessionId: options.sessionId,
          turn: options.turn,
          ...at,
          model: provider.id,
          messages,
          tools,
          ...recipe,
          ...inputs,
          outcome,
          createdAt,
        });
      } catch {
        // The log serves later replays; a failed write here must not end play (the transcript's own writes are the
        // ones whose failure is fatal, and they come next).
      }
    }
  };
  return new Proxy(provider, {
    get(target, property) {
      if (property === 'complete') return complete;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
