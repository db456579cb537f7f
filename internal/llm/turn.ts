// One turn of the agent loop, as an async generator of typed events that returns the turn's result: rounds of
// (fresh snapshot → context → model → tools) until the model answers without tool calls or a stop rule fires. Every
// outcome is reported as what it is (rule 10); every tool call gets exactly one stored answer (rule 9); after an abort
// nothing from the dead turn is yielded (rule 12). runTurn is the same turn for callers that want a listener.
import { randomUUID } from 'node:crypto';
import type { ToolCall } from '../shared/index.js';
import { AbortedError, isAbortError, silentLogger, throwIfAborted } from '../shared/index.js';
import { drainEvents } from './event-stream.js';
import { firstStop } from './guards.js';
import { requestReply } from './turn-reply.js';
import { finishTurn, markTurnStart, openTurn, stopTurn } from './turn-run.js';
import { runTools } from './turn-tools.js';
import type { RunTurnOptions, TurnEvent, TurnOptions, TurnResult } from './turn-types.js';

export { defaultContextTokens } from './turn-run.js';

/** The turn's events as they happen; the generator returns the TurnResult. Pull until it is done. */
export async function* runTurnEvents(options: TurnOptions): AsyncGenerator<TurnEvent, TurnResult> {
  const events = turnEvents(options);
  for (;;) {
    const next = await events.next();
    if (next.done) return next.value;
    if (!options.signal?.aborted) yield next.value; // nothing from a dead turn reaches anyone (rule 12)
  }
}

/** runTurnEvents with a listener: each event goes to `onEvent`; a listener that throws is logged, never fatal. */
export async function runTurn(options: RunTurnOptions): Promise<TurnResult> {
  const { onEvent, ...turnOptions } = options;
  const logger = (options.logger ?? silentLogger).child({ turn: options.turn });
  return drainEvents(runTurnEvents(turnOptions), (event) => {
    if (!onEvent) return;
    try {
      onEvent(event);
    } catch (error) {
      // A rendering bug must not kill the turn and leave tool calls unanswered.
      logger.warn(
        { event: event.type, error: error instanceof Error ? error.message : String(error) },
        'event listener failed',
      );
    }
  });
}

async function* turnEvents(options: TurnOptions): AsyncGenerator<TurnEvent, TurnResult> {
  const { history, signal } = options;
  const run = openTurn(options);
  try {
    if (options.input) await history.append({ role: 'user', content: options.input.text, ...run.stamp });
    markTurnStart(run);
    for (;;) {
      const stop = firstStop(run.beforeRound, run.state);
      if (stop) return stopTurn(run, stop);
      throwIfAborted(signal);
      const round = run.state.rounds + 1;
      run.state.rounds = round;
      yield { type: 'round-start', round };
      const reply = yield* requestReply(run, round);
      if ('error' in reply) return finishTurn(run, 'failed', { error: reply.error });
      throwIfAborted(signal); // an abort during the model call leaves no assistant message
      const { message: answer } = reply.response;
      const calls = normalizeCalls(answer.toolCalls);
      const assistant = await history.append({
        role: 'assistant',
        content: answer.content,
        toolCalls: calls, // always a list (rule 5)
        ...(answer.reasoning ? { reasoning: answer.reasoning } : {}),
        ...run.stamp,
        round,
      });
      yield { type: 'assistant-message', message: assistant };
      if (calls.length === 0) {
        yield { type: 'round-end', round };
        return finishTurn(run, 'answered', { answer: answer.content });
      }
      yield* runTools(run, calls, round);
      throwIfAborted(signal); // an abort that landed as the last result came in still ends the turn as cancelled
      yield { type: 'round-end', round };
      const after = firstStop(run.afterRound, run.state);
      if (after) return stopTurn(run, after);
    }
  } catch (error) {
    if (signal?.aborted && (isAbortError(error) || error instanceof AbortedError)) {
      return finishTurn(run, 'cancelled', { error: 'cancelled' });
    }
    throw error;
  }
}

/** Rule 7: ids come from the provider, or from code when missing or repeated within the reply. */
export function normalizeCalls(calls: ToolCall[]): ToolCall[] {
  const seen = new Set<string>();
  return calls.map((call) => {
    let id = typeof call.id === 'string' ? call.id.trim() : '';
    if (id === '' || seen.has(id)) id = `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    seen.add(id);
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
    return { id, name: typeof call.name === 'string' ? call.name : '', arguments: args };
  });
}
