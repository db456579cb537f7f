// Gathers what recordTurn needs from a turn's events: the successful mutations (by tool name, in order) and the
// failed calls with their error codes. Feed it every TurnEvent (runTurn's onEvent) and read facts() at turn end.
import type { ToolSpec } from '../../shared/index.js';
import type { TurnEvent } from '../turn-types.js';
import { MEMORY_TOOL_NAMES } from './tools.js';
import type { TurnFacts } from './types.js';

const CODE_PREFIX = /^([a-z][a-z0-9_]{1,40}):/;

/** The error code of a failed result: its `code`, else the "<code>: message" prefix minimolt and SpaceMolt use. */
export function errorCode(result: { code?: string; text: string }): string {
  if (result.code) return result.code;
  return CODE_PREFIX.exec(result.text.trim())?.[1] ?? 'error';
}

export interface TurnFactsCollector {
  onEvent(event: TurnEvent): void;
  /** Actions and errors seen so far. */
  facts(): Pick<TurnFacts, 'actions' | 'errors'>;
  reset(): void;
}

export function collectTurnFacts(tools: readonly ToolSpec[]): TurnFactsCollector {
  const readOnly = new Map(tools.map((tool) => [tool.name, tool.readOnly]));
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
      } else if (readOnly.get(name) === false) {
        actions.push(name);
      }
    },
    facts: () => ({ actions: [...actions], errors: errors.map((error) => ({ ...error })) }),
    reset(): void {
      actions = [];
      errors = [];
    },
  };
}
