// Counterfactual replays, stored apart from the sessions they replay: a run (which model, which prompt, which turns)
// and one row per decision point (the original calls, the proposed ones, the verdict, what it cost). Nothing here
// writes to a session's own tables.
import type Database from 'better-sqlite3';
import { z } from 'zod';
import type {
  CounterfactualDecision,
  CounterfactualRun,
  CounterfactualStatus,
  CounterfactualStore,
  CounterfactualSummary,
  CounterfactualTotals,
  Verdict,
} from './request-types.js';
import { guardedWrite } from './write-guard.js';

const ToolCallsSchema = z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() }));
const ReplySchema = z.object({ content: z.string(), toolCalls: ToolCallsSchema });
const ProblemsSchema = z.array(z.string());

const summarySql = `
  SELECT c.*, s.name AS session_name,
    COUNT(d.request_id) AS decisions,
    COALESCE(SUM(d.verdict = 'same'), 0) AS same,
    COALESCE(SUM(d.verdict = 'same-action'), 0) AS same_action,
    COALESCE(SUM(d.verdict IN ('different', 'same-action')), 0) AS different,
    COALESCE(SUM(d.verdict = 'invalid'), 0) AS invalid,
    COALESCE(SUM(d.verdict = 'failed'), 0) AS failed,
    COALESCE(SUM(d.prompt_tokens + d.completion_tokens), 0) AS tokens,
    COALESCE(SUM(d.cost_usd), 0) AS cost
  FROM counterfactuals c
  JOIN sessions s ON s.id = c.session_id
  LEFT JOIN counterfactual_decisions d ON d.counterfactual_id = c.id`;

export class SqliteCounterfactualStore implements CounterfactualStore {
  private readonly db: Database.Database;
  private readonly now: () => number;
  private readonly path: string;

  constructor(db: Database.Database, options: { path: string; now: () => number }) {
    this.db = db;
    this.now = options.now;
    this.path = options.path;
  }

  create(input: {
    sessionId: string;
    model: string;
    prompt?: string;
    fromTurn?: number;
    toTurn?: number;
  }): CounterfactualRun {
    let id = 0;
    guardedWrite({
      path: this.path,
      sessionId: input.sessionId,
      run: () =>
        this.db
          .transaction(() => {
            const session = this.db.prepare('SELECT name FROM sessions WHERE id = ?').get(input.sessionId) as
              { name: string } | undefined;
            const taken = new Set(
              (
                this.db
                  .prepare('SELECT name FROM counterfactuals WHERE name LIKE ?')
                  .all(`${session?.name ?? ''}.cf%`) as Array<{ name: string }>
              ).map((row) => row.name),
            );
            let number = taken.size + 1;
            while (taken.has(`${session?.name ?? input.sessionId}.cf${number}`)) number += 1;
            const result = this.db
              .prepare(
                `INSERT INTO counterfactuals (name, session_id, model, prompt, from_turn, to_turn, status, created_at)
               VALUES (?, ?, ?, ?, ?, ?, 'running', ?)`,
              )
              .run(
                `${session?.name ?? input.sessionId}.cf${number}`,
                input.sessionId,
                input.model,
                input.prompt ?? null,
                input.fromTurn ?? null,
                input.toTurn ?? null,
                this.now(),
              );
            id = Number(result.lastInsertRowid);
          })
          .immediate(),
    });
    return (this.get(id) as CounterfactualSummary).run;
  }

  addDecision(counterfactualId: number, decision: CounterfactualDecision): void {
    guardedWrite({
      path: this.path,
      sessionId: String(counterfactualId),
      run: () =>
        this.db
          .prepare(
            `INSERT INTO counterfactual_decisions (counterfactual_id, request_id, turn, round, verdict, original, proposed,
               problems, prompt_tokens, completion_tokens, cost_usd, latency_ms)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(...decisionParams(counterfactualId, decision)),
    });
  }

  finish(counterfactualId: number, status: Exclude<CounterfactualStatus, 'running'>): void {
    guardedWrite({
      path: this.path,
      sessionId: String(counterfactualId),
      run: () =>
        this.db
          .prepare('UPDATE counterfactuals SET status = ?, ended_at = ? WHERE id = ?')
          .run(status, this.now(), counterfactualId),
    });
  }

  list(): CounterfactualSummary[] {
    const rows = this.db.prepare(`${summarySql} GROUP BY c.id ORDER BY c.created_at DESC, c.id DESC`).all() as Array<
      Record<string, unknown>
    >;
    return rows.map(toSummary);
  }

  get(nameOrId: string | number): CounterfactualSummary | undefined {
    const where = typeof nameOrId === 'number' ? 'c.id = ?' : 'c.name = ?';
    const row = this.db.prepare(`${summarySql} WHERE ${where} GROUP BY c.id`).get(nameOrId) as
      Record<string, unknown> | undefined;
    return row ? toSummary(row) : undefined;
  }

  decisions(counterfactualId: number): CounterfactualDecision[] {
    const rows = this.db
      .prepare('SELECT * FROM counterfactual_decisions WHERE counterfactual_id = ? ORDER BY request_id')
      .all(counterfactualId) as Array<Record<string, unknown>>;
    return rows.map(decisionFromRow);
  }
}

/** A counterfactual_decisions row, its JSON columns checked. */
export function decisionFromRow(row: Record<string, unknown>): CounterfactualDecision {
  return {
    requestId: Number(row.request_id),
    turn: Number(row.turn),
    round: Number(row.round),
    verdict: String(row.verdict) as Verdict,
    original: ReplySchema.parse(JSON.parse(String(row.original))),
    proposed: ReplySchema.parse(JSON.parse(String(row.proposed))),
    problems: ProblemsSchema.parse(JSON.parse(String(row.problems))),
    usage: {
      promptTokens: Number(row.prompt_tokens),
      completionTokens: Number(row.completion_tokens),
      cachedTokens: 0,
      costUsd: Number(row.cost_usd),
    },
    latencyMs: Number(row.latency_ms),
  };
}

export function toSummary(row: Record<string, unknown>): CounterfactualSummary {
  const optionalNumber = (value: unknown): number | null =>
    value === null || value === undefined ? null : Number(value);
  const run: CounterfactualRun = {
    id: Number(row.id),
    name: String(row.name),
    sessionId: String(row.session_id),
    sessionName: String(row.session_name),
    model: String(row.model),
    prompt: typeof row.prompt === 'string' ? row.prompt : null,
    fromTurn: optionalNumber(row.from_turn),
    toTurn: optionalNumber(row.to_turn),
    status: String(row.status) as CounterfactualStatus,
    createdAt: Number(row.created_at),
    endedAt: optionalNumber(row.ended_at),
  };
  const totals: CounterfactualTotals = {
    decisions: Number(row.decisions),
    same: Number(row.same),
    sameAction: Number(row.same_action),
    different: Number(row.different),
    invalid: Number(row.invalid),
    failed: Number(row.failed),
    tokens: Number(row.tokens),
    costUsd: Number(row.cost),
  };
  return { run, totals };
}

/** A decision's row values, in counterfactual_decisions' column order (both engines' INSERT). */
export function decisionParams(counterfactualId: number, decision: CounterfactualDecision): unknown[] {
  return [
    counterfactualId,
    decision.requestId,
    decision.turn,
    decision.round,
    decision.verdict,
    JSON.stringify(decision.original),
    JSON.stringify(decision.proposed),
    JSON.stringify(decision.problems),
    decision.usage.promptTokens,
    decision.usage.completionTokens,
    decision.usage.costUsd,
    // Whole milliseconds, as SQLite's INTEGER column keeps them.
    Math.round(decision.latencyMs),
  ];
}
