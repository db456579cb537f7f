// Per-turn bookkeeping on PostgreSQL, beside the transcript: usage per model call, a game snapshot per turn, a
// summary per turn. Each write is a function of a `Sql`, so the store runs it alone or in the group commit (a fleet's
// store, `groupRecords`); the replacing writes are INSERT … ON CONFLICT DO UPDATE, SQLite's INSERT OR REPLACE.
import { fromSnapshotRow, fromTurnRow, type SnapshotRow, type TurnRow } from '../records.js';
import type { SnapshotInput, SnapshotRecord, TurnRecord, UsagePoint, UsageRecordInput, UsageTotals } from '../types.js';
import type { Sql } from './connection.js';

const snapshotColumns = [
  'session_id',
  'turn',
  'tick',
  'credits',
  'net_worth',
  'fuel',
  'max_fuel',
  'cargo_used',
  'cargo_capacity',
  'hull',
  'max_hull',
  'system_id',
  'poi_id',
  'docked',
  'created_at',
] as const;

const turnColumns = [
  'session_id',
  'turn',
  'outcome',
  'rounds',
  'tool_calls',
  'started_at',
  'ended_at',
  'input_kind',
] as const;

/** INSERT of every column, the row replaced when its key is there already. */
function replaceSql(table: string, columns: readonly string[], key: readonly string[]): string {
  const values = columns.map((_, index) => `$${index + 1}`).join(', ');
  const sets = columns
    .filter((column) => !key.includes(column))
    .map((column) => `${column} = EXCLUDED.${column}`)
    .join(', ');
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${values})
    ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${sets}`;
}

const upsertSnapshotSql = replaceSql('snapshots', snapshotColumns, ['session_id', 'turn']);
const upsertTurnSql = replaceSql('turns', turnColumns, ['session_id', 'turn']);

/** The columns of a usage row with their PostgreSQL types, in the order they are inserted. */
const usageColumns = [
  ['session_id', 'text'],
  ['turn', 'bigint'],
  ['round', 'bigint'],
  ['model', 'text'],
  ['prompt_tokens', 'bigint'],
  ['completion_tokens', 'bigint'],
  ['cached_tokens', 'bigint'],
  ['reasoning_tokens', 'bigint'],
  ['cost_usd', 'double precision'],
  ['latency_ms', 'double precision'],
  ['created_at', 'bigint'],
] as const;

/** One usage row's values, in usageColumns' order. */
export type UsageParams = unknown[];

/** `createdAt` already given: the store stamps it with its clock. */
export function usageParams(input: UsageRecordInput & { createdAt: number }): UsageParams {
  return [
    input.sessionId,
    input.turn ?? null,
    input.round ?? null,
    input.model,
    input.usage.promptTokens,
    input.usage.completionTokens,
    input.usage.cachedTokens,
    input.usage.reasoningTokens ?? 0,
    input.usage.costUsd,
    // Whole milliseconds, as SQLite's INTEGER column keeps them: the same figures on both backends.
    Math.round(input.latencyMs ?? 0),
    input.createdAt,
  ];
}

const usageNames = usageColumns.map(([name]) => name).join(', ');

/** One statement for any number of usage rows (one array per column), in the order given: a fleet's group commit
 * writes a tick's model calls with one round trip, not one each. */
const insertUsageSql = `INSERT INTO usage (${usageNames})
  SELECT ${usageNames} FROM unnest(${usageColumns.map(([, type], index) => `$${index + 1}::${type}[]`).join(', ')})
    WITH ORDINALITY AS t(${usageNames}, position)
  ORDER BY position`;

export async function insertUsage(sql: Sql, rows: readonly UsageParams[]): Promise<void> {
  await sql.run(
    insertUsageSql,
    usageColumns.map((_, column) => rows.map((row) => row[column])),
  );
}

export function writeSnapshot(sql: Sql, input: SnapshotInput & { createdAt: number }): Promise<number> {
  return sql.run(upsertSnapshotSql, [
    input.sessionId,
    input.turn,
    input.tick,
    input.credits,
    input.netWorth,
    input.fuel,
    input.maxFuel,
    input.cargoUsed,
    input.cargoCapacity,
    input.hull,
    input.maxHull,
    input.systemId,
    input.poiId,
    input.docked ? 1 : 0,
    input.createdAt,
  ]);
}

export function writeTurn(sql: Sql, input: TurnRecord): Promise<number> {
  return sql.run(upsertTurnSql, [
    input.sessionId,
    input.turn,
    input.outcome,
    input.rounds,
    input.toolCalls,
    input.startedAt,
    input.endedAt,
    input.inputKind,
  ]);
}

export async function usageTotals(sql: Sql, sessionId: string): Promise<UsageTotals> {
  const [row] = await sql.rows<Record<string, number>>(
    `SELECT COUNT(*) AS calls, COALESCE(SUM(prompt_tokens), 0) AS prompt,
       COALESCE(SUM(completion_tokens), 0) AS completion, COALESCE(SUM(cached_tokens), 0) AS cached,
       COALESCE(SUM(reasoning_tokens), 0) AS reasoning, COALESCE(SUM(cost_usd), 0) AS cost,
       COALESCE(SUM(latency_ms), 0) AS latency
     FROM usage WHERE session_id = $1`,
    [sessionId],
  );
  return {
    calls: row?.calls ?? 0,
    promptTokens: row?.prompt ?? 0,
    completionTokens: row?.completion ?? 0,
    cachedTokens: row?.cached ?? 0,
    reasoningTokens: row?.reasoning ?? 0,
    costUsd: row?.cost ?? 0,
    latencyMs: row?.latency ?? 0,
  };
}

export async function usageSeries(
  sql: Sql,
  options: { sessionId: string; sinceMs?: number | undefined },
): Promise<UsagePoint[]> {
  const rows = await sql.rows<{
    turn: number | null;
    round: number | null;
    model: string;
    cost_usd: number;
    created_at: number;
  }>(
    `SELECT turn, round, model, cost_usd, created_at FROM usage
     WHERE session_id = $1 AND created_at >= $2 ORDER BY created_at, id`,
    [options.sessionId, options.sinceMs ?? 0],
  );
  return rows.map((row) => ({
    turn: row.turn,
    round: row.round,
    model: row.model,
    costUsd: row.cost_usd,
    createdAt: row.created_at,
  }));
}

/** Oldest first; with `last`, only the last n turns' snapshots. */
export async function snapshots(
  sql: Sql,
  options: { sessionId: string; last?: number | undefined },
): Promise<SnapshotRecord[]> {
  const { sessionId, last } = options;
  const rows =
    last === undefined
      ? await sql.rows<SnapshotRow>('SELECT * FROM snapshots WHERE session_id = $1 ORDER BY turn', [sessionId])
      : await sql.rows<SnapshotRow>(
          `SELECT * FROM (SELECT * FROM snapshots WHERE session_id = $1 ORDER BY turn DESC LIMIT $2) AS recent
           ORDER BY turn`,
          [sessionId, Math.max(0, Math.floor(last))],
        );
  return rows.map(fromSnapshotRow);
}

export async function turns(sql: Sql, sessionId: string): Promise<TurnRecord[]> {
  const rows = await sql.rows<TurnRow>('SELECT * FROM turns WHERE session_id = $1 ORDER BY turn', [sessionId]);
  return rows.map(fromTurnRow);
}
