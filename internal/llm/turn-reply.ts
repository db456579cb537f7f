// One model request of a round: the context built afresh from history (rule 1), the reply streamed as `delta`
// events, its usage reported, and the two retries a round allows — harder compaction once when the model says the
// context is too long, and one nudge after an empty reply. Anything else is a failed round, said in words.
import type { CompletionResponse } from '../shared/index.js';
import { AbortedError, FatalError, SkipperError, addUsage, isStoreUnavailable, raceAbort } from '../shared/index.js';
import { buildContext, emptyReplyNudge, latestTurns, type BuildContextOptions } from './context.js';
import { pumpEvents } from './event-stream.js';
import type { TurnRun } from './turn-run.js';
import type { TurnEvent } from './turn-types.js';

export type Reply = { response: CompletionResponse } | { error: string };

/** What this round's context is built from: the history afresh (rule 1) and what the turn found once. */
function roundContextOptions(run: TurnRun): BuildContextOptions {
  const { options } = run;
  return {
    history: options.history.snapshot(), // afresh every round (rule 1)
    systemPrompt: options.systemPrompt,
    ...(options.memoryBlock ? { memoryBlock: options.memoryBlock } : {}),
    budgetTokens: run.budgetTokens,
    tokenCounter: run.tokenCounter,
    currentTurnStart: run.currentTurnStart,
    compaction: run.compaction,
    isQuery: run.isQuery,
    latestStateBefore: run.latestStateBefore,
    older: run.older,
    ...(options.statusTool ? { statusTool: options.statusTool } : {}),
    ...(options.nudge ? { extraSystem: `Note from your last turn: ${options.nudge}` } : {}),
  };
}

export async function* requestReply(run: TurnRun, round: number): AsyncGenerator<TurnEvent, Reply> {
  const { options, logger } = run;
  const { provider, signal } = options;
  let contextRetried = false;
  let emptyRetried = false;
  for (;;) {
    const contextOptions = roundContextOptions(run);
    // A provider that reads only the latest turns gets those and the recipe of the context (see TurnRun.onDemand).
    const { messages: context, recipe } = run.onDemand
      ? latestTurns({ ...contextOptions, local: run.catalog.local.keys() })
      : { messages: buildContext(contextOptions), recipe: undefined };
    // The empty-reply nudge lives in this request only; it is never stored.
    if (emptyRetried) {
      context.push(emptyReplyNudge());
      if (recipe) recipe.nudge = true;
    }
    const started = performance.now();
    let response: CompletionResponse;
    try {
      response = yield* pumpEvents<TurnEvent, CompletionResponse>((push) =>
        raceAbort(
          provider.complete({
            messages: context,
            tools: run.specs,
            ...(recipe ? { recipe } : {}),
            signal,
            onDelta: (delta) => void push({ type: 'delta', delta }),
          }),
          signal,
        ),
      );
    } catch (error) {
      if (signal?.aborted) throw new AbortedError();
      // A store that cannot be reached is no failure of the model's: the turn ends, and its player waits for the store.
      if (endsTheTurn(error)) throw error;
      if (error instanceof SkipperError && error.code === 'context_length' && !contextRetried) {
        contextRetried = true;
        run.compaction = run.compaction === 0 ? 1 : 2;
        yield {
          type: 'notice',
          text: `context too long for the model; compacting harder (level ${run.compaction}) and retrying`,
        };
        continue;
      }
      const message = error instanceof Error ? error.message : String(error);
      return { error: contextRetried ? `context too long even after compaction: ${message}` : message };
    }
    const latencyMs = performance.now() - started;
    logger.debug(
      {
        round,
        latencyMs: Math.round(latencyMs),
        messages: context.length,
        promptTokens: response.usage.promptTokens,
        toolCalls: response.message.toolCalls.length,
        compaction: run.compaction,
      },
      'model reply',
    );
    run.state.usage = addUsage(run.state.usage, response.usage);
    yield { type: 'usage', usage: response.usage, round, latencyMs, model: response.model };
    const empty = response.message.content.trim() === '' && response.message.toolCalls.length === 0;
    if (!empty) return { response };
    if (emptyRetried) return { error: 'empty reply' };
    emptyRetried = true;
    yield { type: 'notice', text: 'the model sent an empty reply; asking once more' };
  }
}

/** Errors that are no failure of the model's: a fatal one, or a store that cannot be reached just now. */
function endsTheTurn(error: unknown): boolean {
  return error instanceof FatalError || isStoreUnavailable(error);
}
