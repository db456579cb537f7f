// What a counterfactual replay hands its provider, and how. A language model is asked at each decision point with
// the whole context it would have been sent. A built-in captain learns from what it is shown, as it did live, so it is
// handed what the live captain was handed, in order: the latest turns (not the whole rebuilt context), what its
// decisions depended on besides them (DecisionInputs: its instance, its fleet's answers, the plan it flew), and every
// request it answered — the ones whose reply the transcript did not keep too, shown unjudged. In a session it played
// only part of (planner mode: a model plans, the autopilot flies), it is asked at its own decisions only.
import type { CompletionRequest, Message, Provider, ToolCall } from '../shared/index.js';
import { isBuiltinProvider } from '../shared/index.js';
import type { RequestRecord, Store, StoredRequest } from '../store/index.js';
import { withSystemPrompt } from './counterfactual-compare.js';
import { requestContexts } from './request-context.js';

export type Reply = { content: string; toolCalls: ToolCall[] };

/** A stored request to hand the provider: judged when it has the original reply (a decision point), else shown. */
export interface ReplayStep {
  request: RequestRecord;
  original?: Reply;
}

/** The steps of a replay by `provider`, and the decision points it is not asked at (another captain's). */
export function replaySteps(options: {
  provider: Provider;
  requests: readonly RequestRecord[];
  points: ReadonlyArray<{ request: RequestRecord; original: Reply }>;
}): { steps: ReplayStep[]; notAsked: number } {
  const { provider, requests, points } = options;
  if (!isBuiltinProvider(provider)) return { steps: [...points], notAsked: 0 };
  const own = requests.some((request) => request.model === provider.id);
  const asked = (request: RequestRecord): boolean => !own || request.model === provider.id;
  const originals = new Map(points.map((point) => [point.request.id, point.original]));
  const steps = requests
    .filter((request) => request.outcome === 'reply' && asked(request))
    .map((request) => {
      const original = originals.get(request.id);
      return original ? { request, original } : { request };
    });
  return { steps, notAsked: points.filter((point) => !asked(point.request)).length };
}

/** Builds the request a stored one stands for, for `provider`. */
export function replayRequests(options: {
  store: Store;
  sessionId: string;
  provider: Provider;
  prompt?: string;
}): (stored: StoredRequest) => Promise<CompletionRequest> {
  const { provider, prompt } = options;
  const handed = isBuiltinProvider(provider) && provider.capabilities?.contextOnDemand === true;
  const contextOf = requestContexts(options.store, options.sessionId, { latestTurns: handed });
  return async (stored) => {
    const context: Message[] = await contextOf(stored);
    const messages = prompt !== undefined ? withSystemPrompt(context, prompt) : context;
    return {
      messages,
      tools: stored.tools,
      ...(handed && stored.recipe ? { recipe: stored.recipe } : {}),
      ...(stored.inputs ? { inputs: stored.inputs } : {}),
    };
  };
}
