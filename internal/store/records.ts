// Per-turn bookkeeping beside the transcript: usage per model call, a game snapshot per turn, a summary per turn.
import type Database from 'better-sqlite3';
import { turnOutcomeOf } from '../shared/index.js';
import type { MmDashboard } from '../spacemolt/index.js';
import type {
  GameSnapshot,
  SnapshotInput,
  SnapshotRecord,
  TurnInputKind,
  TurnRecord,
  UsagePoint,
  UsageRecordInput,
  UsageTotals,
} from './types.js';

/** The snapshot fields of a minimolt dashboard. Net worth defaults to credits when the caller cannot price cargo. */
export function snapshotFromDashboard(dashboard: MmDashboard, netWorth?: number): GameSnapshot {
  return {
    tick: dashboard.tick,
    credits: dashboard.player.credits,
    netWorth: netWorth ?? dashboard.player.credits,
    fuel: dashboard.ship.fuel,
    maxFuel: dashboard.ship.max_fuel,
    cargoUsed: dashboard.ship.cargo_used,
    cargoCapacity: dashboard.ship.cargo_capacity,
    hull: dashboard.ship.hull,
    maxHull: dashboard.ship.max_hull,
    systemId: dashboard.location.system_id,
    poiId: dashboard.location.poi_id,
    docked: dashboard.location.docked,
  };
}

export interface SnapshotRow {
  session_id: string;
  turn: number;
  tick: number;
  credits: number;
  net_worth: number;
  fuel: number;
  max_fuel: number;
  cargo_used: number;
  cargo_capacity: number;
  hull: number;
  max_hull: number;
  system_id: string | null;
  poi_id: string | null;
  docked: number;
  created_at: number;
}

export interface TurnRow {
  session_id: string;
  turn: number;
  outcome: string;
  rounds: number;
  tool_calls: number;
  started_at: number;
  ended_at: number;
  input_kind: string;
}

export function fromTurnRow(row: TurnRow): TurnRecord {
  return {
    sessionId: row.session_id,
    turn: row.turn,
    // Rows written before outcomes were snake_case (round-limit, loop-detected…) read in today's names.
    outcome: turnOutcomeOf(row.outcome),
    rounds: row.rounds,
    toolCalls: row.tool_calls,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    inputKind: row.input_kind as TurnInputKind,
  };
}

export function fromSnapshotRow(row: SnapshotRow): SnapshotRecord {
  return {
    sessionId: row.session_id,
    turn: row.turn,
    tick: row.tick,
    credits: row.credits,
    netWorth: row.net_worth,
    fuel: row.fuel,
    maxFuel: row.max_fuel,
    cargoUsed: row.cargo_used,
    cargoCapacity: row.cargo_capacity,
    hull: row.hull,
    maxHull: row.max_hull,
    systemId: row.system_id,
    poiId: row.poi_id,
    docked: row.docked === 1,
    createdAt: row.created_at,
  };
}

/** Usage, snapshots and turns for one database; rows here are written only by Skipper and read as typed. */
export class TurnRecords {
  private readonly insertUsage: Database.Statement;
  private readonly sumUsage: Database.Statement;
  private readonly selectUsage: Database.Statement;
  private readonly upsertSnapshot: Database.Statement;
  private readonly selectSnapshots: Database.Statement;
  private readonly selectLastSnapshots: Database.Statement;
  private readonly upsertTurn: Database.Statement;
  private readonly selectTurns: Database.Statement;

  constructor(
    db: Database.Database,
    private readonly now: () => number,
  ) {
    this.insertUsage = db.prepare(
      `INSERT INTO usage (session_id, turn, round, model, prompt_tokens, completion_tokens, cached_tokens,
         reasoning_tokens, cost_usd, latency_ms, created_at)
       VALUES (@session_id, @turn, @round, @model, @prompt_tokens, @completion_tokens, @cached_tokens,
         @reasoning_tokens, @cost_usd, @latency_ms, @created_at)`,
    );
    this.sumUsage = db.prepare(
      `SELECT COUNT(*) AS calls, COALESCE(SUM(prompt_tokens), 0) AS prompt, COALESCE(SUM(completion_tokens), 0) AS completion,
         COALESCE(SUM(cached_tokens), 0) AS cached, COALESCE(SUM(reasoning_tokens), 0) AS reasoning,
         COALESCE(SUM(cost_usd), 0) AS cost, COALESCE(SUM(latency_ms), 0) AS latency
       FROM usage WHERE session_id = ?`,
    );
    this.selectUsage = db.prepare(
      `SELECT turn, round, model, cost_usd, created_at FROM usage
       WHERE session_id = ? AND created_at >= ? ORDER BY created_at, id`,
    );
    this.upsertSnapshot = db.prepare(
      `INSERT OR REPLACE INTO snapshots (session_id, turn, tick, credits, net_worth, fuel, max_fuel, cargo_used,
         cargo_capacity, hull, max_hull, system_id, poi_id, docked, created_at)
       VALUES (@session_id, @turn, @tick, @credits, @net_worth, @fuel, @max_fuel, @cargo_used, @cargo_capacity, @hull,
         @max_hull, @system_id, @poi_id, @docked, @created_at)`,
    );
    this.selectSnapshots = db.prepare('SELECT * FROM snapshots WHERE session_id = ? ORDER BY turn');
    this.selectLastSnapshots = db.prepare(
      'SELECT * FROM (SELECT * FROM snapshots WHERE session_id = ? ORDER BY turn DESC LIMIT ?) ORDER BY turn',
    );
    this.upsertTurn = db.prepare(
      `INSERT OR REPLACE INTO turns (session_id, turn, outcome, rounds, tool_calls, started_at, ended_at, input_kind)
       VALUES (@session_id, @turn, @outcome, @rounds, @tool_calls, @started_at, @ended_at, @input_kind)`,
    );
    this.selectTurns = db.prepare('SELECT * FROM turns WHERE session_id = ? ORDER BY turn');
  }

  recordUsage(input: UsageRecordInput): void {
    this.insertUsage.run({
      session_id: input.sessionId,
      turn: input.turn ?? null,
      round: input.round ?? null,
      model: input.model,
      prompt_tokens: input.usage.promptTokens,
      completion_tokens: input.usage.completionTokens,
      cached_tokens: input.usage.cachedTokens,
      reasoning_tokens: input.usage.reasoningTokens ?? 0,
      cost_usd: input.usage.costUsd,
      latency_ms: Math.round(input.latencyMs ?? 0),
      created_at: input.createdAt ?? this.now(),
    });
  }

  usageTotals(sessionId: string): UsageTotals {
    const row = this.sumUsage.get(sessionId) as Record<string, number>;
    return {
      calls: row.calls ?? 0,
      promptTokens: row.prompt ?? 0,
      completionTokens: row.completion ?? 0,
      cachedTokens: row.cached ?? 0,
      reasoningTokens: row.reasoning ?? 0,
      costUsd: row.cost ?? 0,
      latencyMs: row.latency ?? 0,
    };
  }

  usageSeries(sessionId: string, sinceMs = 0): UsagePoint[] {
    const rows = this.selectUsage.all(sessionId, sinceMs) as Array<{
      turn: number | null;
      round: number | null;
      model: string;
      cost_usd: number;
      created_at: number;
    }>;
    return rows.map((row) => ({
      turn: row.turn,
      round: row.round,
      model: row.model,
      costUsd: row.cost_usd,
      createdAt: row.created_at,
    }));
  }

  recordSnapshot(input: SnapshotInput): void {
    this.upsertSnapshot.run({
      session_id: input.sessionId,
      turn: input.turn,
      tick: input.tick,
      credits: input.credits,
      net_worth: input.netWorth,
      fuel: input.fuel,
      max_fuel: input.maxFuel,
      cargo_used: input.cargoUsed,
      cargo_capacity: input.cargoCapacity,
      hull: input.hull,
      max_hull: input.maxHull,
      system_id: input.systemId,
      poi_id: input.poiId,
      docked: input.docked ? 1 : 0,
      created_at: input.createdAt ?? this.now(),
    });
  }

  /** Oldest first; with `last`, only the last n turns' snapshots (a card's trail without the whole history). */
  snapshots(sessionId: string, last?: number): SnapshotRecord[] {
    const rows =
      last === undefined ? this.selectSnapshots.all(sessionId) : this.selectLastSnapshots.all(sessionId, last);
    return (rows as SnapshotRow[]).map(fromSnapshotRow);
  }

  recordTurn(input: TurnRecord): void {
    this.upsertTurn.run({
      session_id: input.sessionId,
      turn: input.turn,
      outcome: input.outcome,
      rounds: input.rounds,
      tool_calls: input.toolCalls,
      started_at: input.startedAt,
      ended_at: input.endedAt,
      input_kind: input.inputKind,
    });
  }

  turns(sessionId: string): TurnRecord[] {
    return (this.selectTurns.all(sessionId) as TurnRow[]).map(fromTurnRow);
  }
}
