// Counterfactual replays on PostgreSQL (counterfactual-store.ts is SQLite's): a run, numbered per session
// (`<session>.cf<N>`), and one row per decision point, summed per run. Rows are mapped by SQLite's mappers.
import type { CounterfactualTable } from '../contract.js';
import { decisionFromRow, decisionParams, toSummary } from '../counterfactual-store.js';
import type {
  CounterfactualDecision,
  CounterfactualRun,
  CounterfactualStatus,
  CounterfactualSummary,
} from '../request-types.js';
import type { PgConnection, Row } from './connection.js';
import { duplicateOf } from './errors.js';

const summarySql = `
  SELECT c.*, s.name AS session_name,
    COUNT(d.request_id) AS decisions,
    COUNT(*) FILTER (WHERE d.verdict = 'same') AS same,
    COUNT(*) FILTER (WHERE d.verdict = 'same-action') AS same_action,
    COUNT(*) FILTER (WHERE d.verdict IN ('different', 'same-action')) AS different,
    COUNT(*) FILTER (WHERE d.verdict = 'invalid') AS invalid,
    COUNT(*) FILTER (WHERE d.verdict = 'failed') AS failed,
    COALESCE(SUM(d.prompt_tokens + d.completion_tokens), 0) AS tokens,
    COALESCE(SUM(d.cost_usd), 0) AS cost
  FROM counterfactuals c
  JOIN sessions s ON s.id = c.session_id
  LEFT JOIN counterfactual_decisions d ON d.counterfactual_id = c.id`;

export class PgCounterfactuals implements CounterfactualTable {
  constructor(
    private readonly db: PgConnection,
    private readonly now: () => number,
  ) {}

  async create(input: {
    sessionId: string;
    model: string;
    prompt?: string;
    fromTurn?: number;
    toTurn?: number;
  }): Promise<CounterfactualRun> {
    // Two replays of one session created at once may pick the same number: the loser numbers again.
    for (let attempt = 1; ; attempt += 1) {
      try {
        const id = await this.insert(input);
        return ((await this.get(id)) as CounterfactualSummary).run;
      } catch (error) {
        if (duplicateOf(error) !== 'counterfactuals_name_key' || attempt >= 5) throw error;
      }
    }
  }

  async addDecision(counterfactualId: number, decision: CounterfactualDecision): Promise<void> {
    await this.db.run(
      `INSERT INTO counterfactual_decisions (counterfactual_id, request_id, turn, round, verdict, original, proposed,
         problems, prompt_tokens, completion_tokens, cost_usd, latency_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      decisionParams(counterfactualId, decision),
    );
  }

  async finish(counterfactualId: number, status: Exclude<CounterfactualStatus, 'running'>): Promise<void> {
    await this.db.run('UPDATE counterfactuals SET status = $1, ended_at = $2 WHERE id = $3', [
      status,
      this.now(),
      counterfactualId,
    ]);
  }

  async list(): Promise<CounterfactualSummary[]> {
    const rows = await this.db.rows(`${summarySql} GROUP BY c.id, s.name ORDER BY c.created_at DESC, c.id DESC`);
    return rows.map(toSummary);
  }

  async get(nameOrId: string | number): Promise<CounterfactualSummary | undefined> {
    const where = typeof nameOrId === 'number' ? 'c.id = $1::bigint' : 'c.name = $1::text';
    const [row] = await this.db.rows(`${summarySql} WHERE ${where} GROUP BY c.id, s.name`, [nameOrId]);
    return row ? toSummary(row) : undefined;
  }

  async decisions(counterfactualId: number): Promise<CounterfactualDecision[]> {
    const rows = await this.db.rows(
      'SELECT * FROM counterfactual_decisions WHERE counterfactual_id = $1 ORDER BY request_id',
      [counterfactualId],
    );
    return rows.map(decisionFromRow);
  }

  /** The run's row under the next free number of its session; resolves to its id. */
  private async insert(input: {
    sessionId: string;
    model: string;
    prompt?: string;
    fromTurn?: number;
    toTurn?: number;
  }): Promise<number> {
    const [session] = await this.db.rows<{ name: string }>('SELECT name FROM sessions WHERE id = $1', [
      input.sessionId,
    ]);
    // ILIKE: SQLite's LIKE ignores ASCII case, and the numbering is the same on both backends.
    const rows = await this.db.rows<Row>('SELECT name FROM counterfactuals WHERE name ILIKE $1', [
      `${session?.name ?? ''}.cf%`,
    ]);
    const taken = new Set(rows.map((row) => String(row.name)));
    const base = session?.name ?? input.sessionId;
    let number = taken.size + 1;
    while (taken.has(`${base}.cf${number}`)) number += 1;
    const [row] = await this.db.rows<{ id: number }>(
      `INSERT INTO counterfactuals (name, session_id, model, prompt, from_turn, to_turn, status, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'running', $7) RETURNING id`,
      [
        `${base}.cf${number}`,
        input.sessionId,
        input.model,
        input.prompt ?? null,
        input.fromTurn ?? null,
        input.toTurn ?? null,
        this.now(),
      ],
    );
    return row?.id ?? 0;
  }
}
