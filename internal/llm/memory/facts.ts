// Gathers what recordTurn needs from a turn's events: the successful mutations (by tool name, in order) and the
// failed calls with their error codes. Feed it every TurnEvent (runTurn's onEvent) and read facts() at turn end.
import { errorCodeOf, flatHead, type Message, type ToolSpec, argumentsOf, callKind } from '../../shared/index.js';
import type { TurnEvent } from '../turn-types.js';
import { MEMORY_TOOL_NAMES } from './tools.js';
import type { TurnFacts } from './types.js';

/** The error code of a failed result as it comes from the loop: its `code`, else what its data or text says (the
 * same reading as for stored messages, errorCodeOf). */
export function errorCode(result: { code?: string; text: string; data?: unknown }): string {
  return result.code || errorCodeOf({ content: result.text, data: result.data });
}

export interface TurnFactsCollector {
  onEvent(event: TurnEvent): void;
  /** Actions and errors seen so far. */
  facts(): Pick<TurnFacts, 'actions' | 'errors'>;
  reset(): void;
}

/** A successful call's action name when it is a tick-costing action (per call: a grouped tool holds both kinds),
 * named by its action so a grouped `{action:"mine"}` call reads as "mine"; undefined for queries. */
function actionName(
  specs: ReadonlyMap<string, ToolSpec>,
  name: string,
  argumentsText: string | undefined,
): string | undefined {
  const spec = specs.get(name);
  if (!spec) return undefined;
  const args = argumentsOf(argumentsText);
  if (callKind(spec, args) !== 'mutation') return undefined;
  return spec.actions && typeof args.action === 'string' ? args.action : name;
}

export function collectTurnFacts(tools: readonly ToolSpec[]): TurnFactsCollector {
  const specs = new Map(tools.map((tool) => [tool.name, tool]));
  let actions: string[] = [];
  let errors: TurnFacts['errors'] = [];
  return {
    onEvent(event: TurnEvent): void {
      if (event.type !== 'tool-result') return;
      const name = event.call.name;
      if (MEMORY_TOOL_NAMES.includes(name)) return;
      if (event.result.isError) {
        if (event.result.code === 'cancelled') return;
        errors.push({ tool: name, code: errorCode(event.result), args: event.call.arguments });
      } else {
        const action = actionName(specs, name, event.call.arguments);
        if (action) actions.push(action);
      }
    },
    facts: () => ({ actions: [...actions], errors: errors.map((error) => ({ ...error })) }),
    reset(): void {
      actions = [];
      errors = [];
    },
  };
}

/**
 * The same facts read back from a turn's stored messages (filter the history by `turn`): for callers that see
 * messages rather than loop events, such as the session runner at turn end.
 */
export function turnFactsFromMessages(
  messages: readonly Message[],
  tools: readonly ToolSpec[],
): Pick<TurnFacts, 'actions' | 'errors'> {
  const specs = new Map(tools.map((tool) => [tool.name, tool]));
  const argsById = new Map<string, string>();
  const actions: string[] = [];
  const errors: TurnFacts['errors'] = [];
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) argsById.set(call.id, call.arguments);
      continue;
    }
    if (message.role !== 'tool' || !message.toolName || MEMORY_TOOL_NAMES.includes(message.toolName)) continue;
    if (message.isError) {
      const code = errorCodeOf(message);
      if (code === 'cancelled') continue;
      const args = message.toolCallId ? argsById.get(message.toolCallId) : undefined;
      errors.push(args === undefined ? { tool: message.toolName, code } : { tool: message.toolName, code, args });
    } else {
      const action = actionName(
        specs,
        message.toolName,
        message.toolCallId ? argsById.get(message.toolCallId) : undefined,
      );
      if (action) actions.push(action);
    }
  }
  return { actions, errors };
}

/**
 * Retrieval context from recent history: the last user lines, answers and tool results (newest first, whitespace
 * collapsed, at most `maxChars`), so the block follows what the captain is doing now, not only the goal.
 */
export function memoryContext(options: { goal?: string; messages: readonly Message[]; maxChars?: number }): {
  goal?: string;
  recentText: string;
} {
  const max = options.maxChars ?? 2000;
  const parts: string[] = [];
  let used = 0;
  for (let index = options.messages.length - 1; index >= 0 && used < max; index -= 1) {
    const message = options.messages[index] as Message;
    if (message.role === 'system') continue;
    const names = message.toolCalls?.map((call) => call.name).join(' ') ?? '';
    const text = flatHead(`${message.toolName ?? ''} ${names} ${message.content}`, 400);
    if (text === '') continue;
    parts.push(text);
    used += text.length + 1;
  }
  const recentText = parts.join(' ').slice(0, max);
  return options.goal !== undefined ? { goal: options.goal, recentText } : { recentText };
}
