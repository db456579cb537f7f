// runTurn: one turn of the agent loop — rounds of (fresh snapshot → context → model → tools) until the model answers
// without tool calls or a stop rule fires. Every outcome is reported as what it is (rule 10); every tool call gets
// exactly one stored answer (rule 9); after an abort nothing from the dead turn is emitted (rule 12).
import { createHash, randomUUID } from 'node:crypto';
import type { CompletionResponse, GameOp, Message, NewMessage, StreamDelta, ToolCall, ToolResult, ToolSpec } from '../shared/index.js';
import { AbortedError, FatalError, OP_KINDS, SkipperError, addUsage, emptyUsage, isAbortError, raceAbort, silentLogger, throwIfAborted } from '../shared/index.js';
import { buildContext, defaultIsQuery, findLatestState } from './context.js';
import { dispatchCalls, prepareCall, type CallOutcome, type PreparedCall } from './dispatch.js';
import { budgetExceeded, canonicalJson, firstStop, loopDetected, maxRounds, tooManyFailures, type Stop, type StopRule, type TurnState } from './guards.js';
import { cancelledResult } from './transcript.js';
import { estimateTextTokens } from './tokens.js';
import { GAME_TOOLS_TOOL, fitToolListOnce } from './tool-budget.js';
import type { RunTurnOptions, TurnEvent, TurnResult } from './turn-types.js';

const EMPTY_NUDGE = 'Your last reply was empty. Call a tool, or answer in plain text.';

export function defaultContextTokens(contextWindow: number | undefined): number {
  if (!contextWindow) return 16_000;
  return Math.min(32_000, Math.max(2_000, Math.floor(contextWindow / 2)));
}

export async function runTurn(options: RunTurnOptions): Promise<TurnResult> {
  const { provider, history, signal } = options;
  const logger = (options.logger ?? silentLogger).child({ turn: options.turn });
  const emit = (event: TurnEvent): void => {
    if (signal?.aborted || !options.onEvent) return; // nothing from a dead turn reaches the UI (rule 12)
    try {
      options.onEvent(event);
    } catch (error) {
      // A rendering bug must not kill the turn and leave tool calls unanswered.
      logger.warn({ event: event.type, error: error instanceof Error ? error.message : String(error) }, 'event listener failed');
    }
  };
  const stamp = options.turn !== undefined ? { turn: options.turn } : {};
  const local = new Map((options.localTools ?? []).map((tool) => [tool.spec.name, tool]));
  const gameTools = new Map(options.tools.filter((spec) => !local.has(spec.name)).map((spec) => [spec.name, spec]));
  const catalog = { tools: gameTools, local };
  const contextTokens = options.contextTokens ?? defaultContextTokens(provider.contextWindow);
  // Tool schemas travel with every request: at most a quarter of the context (real SpaceMolt's flat face has ~206
  // tools). Past that they are compacted, then only the core tools are offered and `game_tools` lists the rest, which
  // stay callable by name (dispatch knows every game tool).
  const { fitted, listing } = fitToolListOnce(options.tools, [...gameTools.values()], Math.floor(contextTokens / 4));
  if (listing && !local.has(GAME_TOOLS_TOOL)) local.set(GAME_TOOLS_TOOL, listing);
  const specs: ToolSpec[] = [...fitted.offered, ...[...local.values()].map((tool) => tool.spec)];
  // Per result: on a grouped tool (SpaceMolt v2) the op the game layer read decides, so an old `spacemolt` status
  // becomes a stub like any query result.
  const isQuery = (name: string, message?: Message): boolean => {
    if (local.has(name)) return true;
    const spec = gameTools.get(name);
    const op = (message?.data as { op?: unknown } | undefined)?.op;
    if (spec?.actions && typeof op === 'string' && op in OP_KINDS) return OP_KINDS[op as GameOp] === 'query';
    return spec?.readOnly ?? defaultIsQuery(name);
  };
  // Leave room for the tool schemas (but never less than half the budget for messages).
  const budgetTokens = Math.max(Math.floor(contextTokens / 2), contextTokens - estimateTextTokens(JSON.stringify(specs)));

  const state: TurnState = { rounds: 0, usage: emptyUsage(), consecutiveFailures: 0 };
  const repeats = new Map<string, number>();
  const counts = { toolCalls: 0, failedToolCalls: 0, errorsByCode: {} as Record<string, number> };
  const finish = (outcome: TurnResult['outcome'], extra: Partial<TurnResult> = {}): TurnResult => {
    logger.info({ outcome, rounds: state.rounds, toolCalls: counts.toolCalls, error: extra.error }, 'turn end');
    return { outcome, rounds: state.rounds, ...counts, usage: state.usage, ...extra };
  };
  const stopWith = (stop: Stop): TurnResult =>
    finish(stop.outcome, { ...(stop.error ? { error: stop.error } : {}), ...(stop.nudge ? { nudge: stop.nudge } : {}) });

  const beforeRound: StopRule[] = options.budget ? [budgetExceeded(options.budget)] : [];
  const afterRound: StopRule[] = [tooManyFailures(5), loopDetected(3), maxRounds(Math.max(1, options.maxRounds ?? 20))];
  // Without input, a user line the caller appended just before the turn still belongs to it.
  // Where the current turn starts, found once the input is in the history: appending it may let the history drop
  // its oldest turns (a windowed history), so an index taken before the append could point past the turn's start.
  let currentTurnStart = 0;
  // One scan per turn for the latest game state before it; rounds then only look inside the current turn.
  let latestStateBefore = -1;
  const markTurnStart = (): void => {
    const atStart = history.snapshot();
    currentTurnStart = atStart.at(-1)?.role === 'user' ? atStart.length - 1 : atStart.length;
    latestStateBefore = findLatestState(atStart, 0, currentTurnStart);
  };
  let compaction: 0 | 1 | 2 = 0;

  const requestReply = async (round: number): Promise<{ response: CompletionResponse } | { error: string }> => {
    let contextRetried = false;
    let emptyRetried = false;
    for (;;) {
      const context = buildContext({
        history: history.snapshot(), // afresh every round (rule 1)
        systemPrompt: options.systemPrompt,
        ...(options.memoryBlock ? { memoryBlock: options.memoryBlock } : {}),
        budgetTokens,
        currentTurnStart,
        compaction,
        isQuery,
        latestStateBefore,
        ...(options.nudge ? { extraSystem: `Note from your last turn: ${options.nudge}` } : {}),
      });
      // The empty-reply nudge lives in this request only; it is never stored.
      if (emptyRetried) context.push({ id: 'context-nudge', role: 'user', content: EMPTY_NUDGE, createdAt: 0 });
      const started = performance.now();
      let response: CompletionResponse;
      try {
        const onDelta = (delta: StreamDelta): void => emit({ type: 'delta', delta });
        response = await raceAbort(provider.complete({ messages: context, tools: specs, signal, onDelta }), signal);
      } catch (error) {
        if (signal?.aborted) throw new AbortedError();
        if (error instanceof FatalError) throw error;
        if (error instanceof SkipperError && error.code === 'context_length' && !contextRetried) {
          contextRetried = true;
          compaction = compaction === 0 ? 1 : 2;
          emit({ type: 'notice', text: `context too long for the model; compacting harder (level ${compaction}) and retrying` });
          continue;
        }
        const message = error instanceof Error ? error.message : String(error);
        return { error: contextRetried ? `context too long even after compaction: ${message}` : message };
      }
      const latencyMs = performance.now() - started;
      logger.debug(
        { round, latencyMs: Math.round(latencyMs), messages: context.length, promptTokens: response.usage.promptTokens, toolCalls: response.message.toolCalls.length, compaction },
        'model reply',
      );
      state.usage = addUsage(state.usage, response.usage);
      emit({ type: 'usage', usage: response.usage, round, latencyMs, model: response.model });
      const empty = response.message.content.trim() === '' && response.message.toolCalls.length === 0;
      if (!empty) return { response };
      if (emptyRetried) return { error: 'empty reply' };
      emptyRetried = true;
      emit({ type: 'notice', text: 'the model sent an empty reply; asking once more' });
    }
  };

  const account = (prepared: PreparedCall, result: ToolResult): void => {
    counts.toolCalls += 1;
    if (result.isError) {
      counts.failedToolCalls += 1;
      state.consecutiveFailures += 1; // only a success resets it (rule 10)
      const code = result.code ?? 'error';
      counts.errorsByCode[code] = (counts.errorsByCode[code] ?? 0) + 1;
      state.lastError = `${prepared.call.name || '(no name)'}: ${result.text.slice(0, 200)}`;
    } else {
      state.consecutiveFailures = 0;
    }
    const argsKey = prepared.invalid ? prepared.call.arguments : canonicalJson(prepared.args);
    const digest = createHash('sha1').update(prepared.call.name).update('\0').update(argsKey).update('\0').update(result.text).digest('hex');
    const count = (repeats.get(digest) ?? 0) + 1;
    repeats.set(digest, count);
    if (!state.topRepeat || count > state.topRepeat.count) state.topRepeat = { name: prepared.call.name, count, text: result.text };
  };

  const runTools = async (calls: ToolCall[], round: number): Promise<void> => {
    const roundLogger = logger.child({ round });
    const prepared = calls.map((call) => prepareCall(call, catalog));
    for (const item of prepared) emit({ type: 'tool-call', call: item.call, readOnly: item.readOnly });
    const outcomes: Array<CallOutcome | undefined> = new Array(prepared.length);
    const delivered = new Set<number>();
    const toolMessage = (item: PreparedCall, result: ToolResult): NewMessage => ({
      role: 'tool',
      content: result.text, // stored whole; the context builder shortens it for the model
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
    const deliver = async (index: number): Promise<void> => {
      const item = prepared[index] as PreparedCall;
      const outcome = outcomes[index] as CallOutcome;
      delivered.add(index);
      const message = await history.append(toolMessage(item, outcome.result));
      // Arguments are never logged: login/register carry passwords (rule 14).
      roundLogger.debug({ tool: item.call.name, ms: Math.round(outcome.ms), isError: outcome.result.isError, code: outcome.result.code }, 'tool result');
      account(item, outcome.result);
      emit({ type: 'tool-result', call: item.call, message, result: outcome.result, ms: outcome.ms });
    };
    try {
      await dispatchCalls({ calls: prepared, game: options.game, signal, concurrency: options.concurrency ?? 4, outcomes, deliver });
    } catch (error) {
      if (!signal?.aborted) throw error;
      // Rule 9: every open call gets one answer. Results that finished before the abort are real and kept.
      for (let index = 0; index < prepared.length; index += 1) {
        if (delivered.has(index)) continue;
        const item = prepared[index] as PreparedCall;
        const outcome = outcomes[index];
        await history.append(outcome ? toolMessage(item, outcome.result) : { ...cancelledResult(item.call, { ...stamp, round }) });
      }
      throw new AbortedError();
    }
  };

  try {
    if (options.input) await history.append({ role: 'user', content: options.input.text, ...stamp });
    markTurnStart();
    for (;;) {
      const stop = firstStop(beforeRound, state);
      if (stop) return stopWith(stop);
      throwIfAborted(signal);
      const round = state.rounds + 1;
      state.rounds = round;
      emit({ type: 'round-start', round });
      const reply = await requestReply(round);
      if ('error' in reply) return finish('failed', { error: reply.error });
      throwIfAborted(signal); // an abort during the model call leaves no assistant message
      const { message: answer } = reply.response;
      const calls = normalizeCalls(answer.toolCalls);
      const assistant = await history.append({
        role: 'assistant',
        content: answer.content,
        toolCalls: calls, // always a list (rule 5)
        ...(answer.reasoning ? { reasoning: answer.reasoning } : {}),
        ...stamp,
        round,
      });
      emit({ type: 'assistant-message', message: assistant });
      if (calls.length === 0) {
        emit({ type: 'round-end', round });
        return finish('answered', { answer: answer.content });
      }
      await runTools(calls, round);
      throwIfAborted(signal); // an abort that landed as the last result came in still ends the turn as cancelled
      emit({ type: 'round-end', round });
      const after = firstStop(afterRound, state);
      if (after) return stopWith(after);
    }
  } catch (error) {
    if (signal?.aborted && (isAbortError(error) || error instanceof AbortedError)) {
      return finish('cancelled', { error: 'cancelled' });
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
