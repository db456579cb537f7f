// Episodes (what one turn did, written by code) and the factual handoff the autopilot leaves for the next session.
// Both are short and factual: numbers and names, no prose the model has to wade through.
import { z } from 'zod';
import type { MemoryOutcome, TurnFacts } from './types.js';

const ARGS_CHARS = 80;

export const episodeEvidenceSchema = z.object({
  errors: z.array(z.object({ tool: z.string(), code: z.string(), args: z.string().optional() })).default([]),
  actions: z.array(z.string()).default([]),
});

export type EpisodeEvidence = z.infer<typeof episodeEvidenceSchema> & {
  outcome: string;
  creditsBefore?: number;
  creditsAfter?: number;
  netWorthBefore?: number;
  netWorthAfter?: number;
};

/** Errors of an episode's evidence ([] when the evidence is not an episode's). */
export function episodeErrors(evidence: unknown): Array<{ tool: string; code: string; args?: string }> {
  const parsed = episodeEvidenceSchema.safeParse(evidence);
  return parsed.success ? parsed.data.errors : [];
}

/** A turn that did nothing (no action, no error, no money moved) is not worth an episode. */
export function isEventful(turn: TurnFacts): boolean {
  const moved = (before?: number, after?: number): boolean =>
    before !== undefined && after !== undefined && before !== after;
  return (
    turn.actions.length > 0 ||
    turn.errors.length > 0 ||
    moved(turn.creditsBefore, turn.creditsAfter) ||
    !['answered', 'cancelled'].includes(turn.outcome)
  );
}

export function episodeOutcome(turn: TurnFacts): MemoryOutcome {
  return turn.errors.length > 0 || turn.outcome !== 'answered' ? 'failure' : 'success';
}

/** "mine×3, sell" — counts of consecutive and repeated names, in first-seen order. */
export function countNames(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return [...counts].map(([name, count]) => (count > 1 ? `${name}×${count}` : name)).join(', ');
}

function change(label: string, before?: number, after?: number): string | undefined {
  if (before === undefined || after === undefined) return undefined;
  const delta = after - before;
  const sign = delta > 0 ? '+' : '';
  return `${label} ${before}→${after} (${sign}${delta})`;
}

export function clipArgs(args: string | undefined): string | undefined {
  if (args === undefined || args.trim() === '' || args.trim() === '{}') return undefined;
  const flat = args.replace(/\s+/g, ' ').trim();
  return flat.length > ARGS_CHARS ? `${flat.slice(0, ARGS_CHARS - 1)}…` : flat;
}

/** How a past turn names its goal ("Goal \"…\""); the memory block leaves it out for the goal of now. */
export function episodeGoalPrefix(goal: string): string {
  return `Goal "${goal.slice(0, 120)}"`;
}

export function episodeText(turn: TurnFacts): string {
  const parts: string[] = [];
  parts.push(turn.goal ? `${episodeGoalPrefix(turn.goal)}: ${turn.outcome}` : `Turn ${turn.outcome}`);
  const credits = change('credits', turn.creditsBefore, turn.creditsAfter);
  if (credits) parts.push(credits);
  const worth = change('net worth', turn.netWorthBefore, turn.netWorthAfter);
  if (worth) parts.push(worth);
  if (turn.actions.length > 0) parts.push(`did ${countNames(turn.actions)}`);
  if (turn.errors.length > 0) {
    parts.push(`errors: ${countNames(turn.errors.map((error) => `${error.code} on ${error.tool}`))}`);
  }
  return `${parts.join('; ')}.`;
}

export interface SessionSummaryFacts {
  turns: number;
  creditsStart?: number;
  creditsEnd?: number;
  /** Where the ship is: "Sol / Sol Central (docked)". */
  location?: string;
  /** "12/70 (iron_ore×12)". */
  cargo?: string;
  fuel?: string;
  /** Error codes worth a warning, with counts: { no_fuel: 2 } or lines. */
  watchOut?: Record<string, number> | string[];
  /** Anything else worth one line (the goal, what to do next). */
  next?: string;
}

/** "Last session: N turns, credits A→B, at X, cargo …, watch out for …" */
export function factualHandoff(summary: SessionSummaryFacts): string {
  const parts = [`Last session: ${summary.turns} turn${summary.turns === 1 ? '' : 's'}`];
  if (summary.creditsStart !== undefined && summary.creditsEnd !== undefined) {
    parts.push(`credits ${summary.creditsStart}→${summary.creditsEnd}`);
  } else if (summary.creditsEnd !== undefined) {
    parts.push(`credits ${summary.creditsEnd}`);
  }
  if (summary.location) parts.push(`at ${summary.location}`);
  if (summary.fuel) parts.push(`fuel ${summary.fuel}`);
  if (summary.cargo) parts.push(`cargo ${summary.cargo}`);
  const watch = Array.isArray(summary.watchOut)
    ? summary.watchOut
    : Object.entries(summary.watchOut ?? {})
        .sort((a, b) => b[1] - a[1])
        .map(([code, count]) => `${code} (${count}×)`);
  if (watch.length > 0) parts.push(`watch out for ${watch.slice(0, 6).join(', ')}`);
  let text = `${parts.join(', ')}.`;
  if (summary.next) text += ` ${summary.next}`;
  return text;
}
