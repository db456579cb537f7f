// A counterfactual run beside its original on the replay view: the runs stored for a session and, for each, the
// decisions where the other model (or prompt) would have chosen otherwise — the turns the page marks on the replay
// and lists at the slider's turn. Decisions that agree are counted, not sent.
import type { ToolCall } from '../shared/index.js';
import type { CounterfactualDecision, CounterfactualSummary, Store } from '../store/index.js';
import { actionLine } from './bridge.js';

/** Divergences sent per run (a long run's first ones; the totals still count them all). */
export const MAX_DIVERGENCES = 2000;

export interface Divergence {
  turn: number;
  round: number;
  verdict: CounterfactualDecision['verdict'];
  /** What the original captain did: its calls as action lines, or its words. */
  original: string[];
  proposed: string[];
  problems: string[];
}

export interface CounterfactualView extends CounterfactualSummary {
  divergences: Divergence[];
}

function choices(answer: { content: string; toolCalls: ToolCall[] }): string[] {
  if (answer.toolCalls.length > 0) return answer.toolCalls.map((call) => actionLine(call.name, call.arguments));
  return answer.content ? [`says: ${answer.content.slice(0, 200)}`] : ['(nothing)'];
}

/** The decisions that differ from the original, in turn and round order. */
export function divergences(decisions: readonly CounterfactualDecision[], max = MAX_DIVERGENCES): Divergence[] {
  return decisions
    .filter((decision) => decision.verdict !== 'same')
    .sort((a, b) => a.turn - b.turn || a.round - b.round)
    .slice(0, max)
    .map((decision) => ({
      turn: decision.turn,
      round: decision.round,
      verdict: decision.verdict,
      original: choices(decision.original),
      proposed: choices(decision.proposed),
      problems: decision.problems.slice(0, 5),
    }));
}

/** The session's counterfactual runs, newest first, each with where it diverged. */
export async function counterfactualViews(store: Store, sessionId: string): Promise<CounterfactualView[]> {
  const views: CounterfactualView[] = [];
  for (const summary of await store.counterfactuals.list()) {
    if (summary.run.sessionId !== sessionId) continue;
    views.push({ ...summary, divergences: divergences(await store.counterfactuals.decisions(summary.run.id)) });
  }
  return views;
}
