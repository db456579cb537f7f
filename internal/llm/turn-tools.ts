// The tool calls of one round: announced as `tool-call` events, dispatched (queries in parallel, mutations in order),
// each answered by exactly one stored tool message (rule 9) and reported as a `tool-result` event. On an abort the
// results that already came in are kept and every open call gets a synthetic `cancelled` answer.
import type { NewMessage, ToolCall, ToolResult } from '../shared/index.js';
import { AbortedError } from '../shared/index.js';
import { dispatchCalls, prepareCall, type CallOutcome, type PreparedCall } from './dispatch.js';
import { pumpEvents } from './event-stream.js';
import { cancelledResult } from './transcript.js';
import { countResult, type TurnRun } from './turn-run.js';
import type { TurnEvent } from './turn-types.js';

export async function* runTools(run: TurnRun, calls: ToolCall[], round: number): AsyncGenerator<TurnEvent, void> {
  const { options, stamp } = run;
  const { history, signal } = options;
  const roundLogger = run.logger.child({ round });
  const prepared = calls.map((call) => prepareCall(call, run.catalog));
  for (const item of prepared) yield { type: 'tool-call', call: item.call, readOnly: item.readOnly };
  const outcomes: Array<CallOutcome | undefined> = new Array(prepared.length);
  const delivered = new Set<number>();
  const toolMessage = (item: PreparedCall, result: ToolResult): NewMessage => ({
    role: 'tool',
    content: result.text, // as dispatch bounded it (TOOL_RESULT_MAX_CHARS); the context builder may shorten it more
    toolCallId: item.call.id,
    toolName: item.call.name,
    isError: result.isError,
    ...(result.parts ? { parts: result.parts } : {}),
    // Errors found by Skipper itself (bad JSON, unknown tool, timeout, memory tools) carry their code in the same
    // place as the game's own, so reports and lessons read one field.
    ...(result.data !== undefined
      ? { data: result.data }
      : result.isError && result.code
        ? { data: { error: { code: result.code, message: result.text } } }
        : {}),
    ...stamp,
    round,
  });
  yield* pumpEvents<TurnEvent, void>(async (push) => {
    // Dispatch hands results over one by one, in the model's order; each is stored, counted and reported before the
    // next one (and before the next mutation starts).
    const deliver = async (index: number): Promise<void> => {
      const item = prepared[index] as PreparedCall;
      const outcome = outcomes[index] as CallOutcome;
      delivered.add(index);
      const message = await history.append(toolMessage(item, outcome.result));
      // Arguments are never logged: login/register carry passwords (rule 14).
      roundLogger.debug(
        {
          tool: item.call.name,
          ms: Math.round(outcome.ms),
          isError: outcome.result.isError,
          code: outcome.result.code,
        },
        'tool result',
      );
      countResult(run, item, outcome.result);
      await push({ type: 'tool-result', call: item.call, message, result: outcome.result, ms: outcome.ms });
    };
    try {
      await dispatchCalls({
        calls: prepared,
        game: options.game,
        signal,
        concurrency: options.concurrency ?? 4,
        outcomes,
        deliver,
      });
    } catch (error) {
      if (!signal?.aborted) throw error;
      // Rule 9: every open call gets one answer. Results that finished before the abort are real and kept.
      for (let index = 0; index < prepared.length; index += 1) {
        if (delivered.has(index)) continue;
        const item = prepared[index] as PreparedCall;
        const outcome = outcomes[index];
        await history.append(
          outcome ? toolMessage(item, outcome.result) : { ...cancelledResult(item.call, { ...stamp, round }) },
        );
      }
      throw new AbortedError();
    }
  });
}
