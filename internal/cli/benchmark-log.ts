// --benchmark FILE: a JSONL event log for outside benchmark tools — tool_call, tool_error and turn_end with running
// token totals. Written synchronously so a killed run keeps every line it reported.
import { appendFileSync, writeFileSync } from 'node:fs';
import { errorCodeOf } from '../shared/index.js';
import type { SessionRunner } from '../session/index.js';

export function attachBenchmarkLog(
  runner: SessionRunner,
  path: string,
  header: { session: string; model: string; game: string },
): () => void {
  writeFileSync(path, '', { mode: 0o600 });
  const write = (event: Record<string, unknown>): void =>
    appendFileSync(path, `${JSON.stringify({ ts: Date.now(), ...event })}\n`);
  write({ event: 'session_start', ...header });
  return runner.on((event) => {
    if (event.type === 'tool-result') {
      const base = { tool: event.message.toolName, id: event.message.toolCallId, turn: event.message.turn ?? null };
      write({ event: 'tool_call', ...base, ok: event.message.isError !== true });
      if (event.message.isError) {
        write({ event: 'tool_error', ...base, code: errorCodeOf(event.message) });
      }
    } else if (event.type === 'turn-end') {
      const usage = runner.usage;
      write({
        event: 'turn_end',
        turn: event.summary.turn,
        outcome: event.summary.outcome,
        tool_calls: event.summary.toolCalls,
        prompt_tokens_total: usage.promptTokens,
        completion_tokens_total: usage.completionTokens,
        cached_tokens_total: usage.cachedTokens,
        tokens_total: usage.promptTokens + usage.completionTokens,
        cost_usd_total: usage.costUsd,
        credits: runner.state?.credits ?? null,
        tick: runner.state?.tick ?? null,
      });
    }
  });
}
