// The figures of a session — turns, duration, ticks, credits and net worth measured between a start and an end state,
// tick utilisation and its source, tokens and cost — and the one set of snake_case names every `--json` output writes
// them under. `skipper sessions`, `skipper report`, export (its header and outcome) and the autoplay summary all take
// them from storedFigures: autoplay stores the state it started from as the snapshot before its first turn, the state
// it ended in as its last turn's, and the game's busy ticks (when the game reports them) with the session, so the
// summary printed after the run reads the same rows as the commands that read the store later.
import { creditsPer1kTokens, usdPer1kCredits, type Usage } from '../shared/index.js';
import type { GameSnapshot, SnapshotRecord, UsageTotals } from '../store/index.js';
import type { NetWorthPricing } from './price-book.js';
import { tickUtilisation, type TickUtilisation } from './tick-utilisation.js';
import {
  scanTranscript,
  type TranscriptReader,
  type ActionSeen,
  type FigurePoint,
  type FiguresStore,
  type TranscriptScan,
} from './transcript-scan.js';

/** What a figure needs of a state: a stored snapshot, a report point or the live game state all fit. */
export interface FigureState {
  tick?: number | null | undefined;
  credits?: number | null | undefined;
  netWorth?: number | null | undefined;
}

export interface SessionFigures<State extends FigureState = GameSnapshot> {
  ticks: number | null;
  creditsChange: number | null;
  netWorthChange: number | null;
  start: State | null;
  end: State | null;
}

const change = (from: number | null | undefined, to: number | null | undefined): number | null =>
  typeof from === 'number' && typeof to === 'number' ? to - from : null;

/** The figures between two states; a change is null, not zero, when either side does not know it. */
export function figuresBetween<State extends FigureState>(
  start: State | null | undefined,
  end: State | null | undefined,
): SessionFigures<State> {
  const ticks = change(start?.tick, end?.tick);
  return {
    ticks: ticks === null ? null : Math.max(0, ticks),
    creditsChange: change(start?.credits, end?.credits),
    netWorthChange: change(start?.netWorth, end?.netWorth),
    start: start ?? null,
    end: end ?? null,
  };
}

/** The figures between the first and the last of a session's states (its stored snapshots, or a report's points). */
export function sessionFigures<State extends FigureState = GameSnapshot>(
  states: readonly State[],
): SessionFigures<State> {
  return figuresBetween(states[0], states.at(-1));
}

/** The game figures under the names every `--json` output uses. */
export interface FiguresJson {
  ticks: number | null;
  credits_start: number | null;
  credits_end: number | null;
  credits_change: number | null;
  net_worth_start: number | null;
  net_worth_end: number | null;
  net_worth_change: number | null;
}

export function figuresJson(figures: SessionFigures<FigureState>): FiguresJson {
  return {
    ticks: figures.ticks,
    credits_start: figures.start?.credits ?? null,
    credits_end: figures.end?.credits ?? null,
    credits_change: figures.creditsChange,
    net_worth_start: figures.start?.netWorth ?? null,
    net_worth_end: figures.end?.netWorth ?? null,
    net_worth_change: figures.netWorthChange,
  };
}

/** Model usage under the names every `--json` output uses; `tokens` is prompt + completion, of which
 * `cached_prompt_tokens` the provider served from its cache (billed at the model's cached rate). Beside the cost: credits
 * gained per 1,000 tokens and USD per 1,000 credits gained (null where undefined). */
export interface UsageJson {
  tokens: number;
  prompt_tokens: number;
  completion_tokens: number;
  cached_prompt_tokens: number;
  cost_usd: number;
  credits_per_1k_tokens: number | null;
  usd_per_1k_credits: number | null;
}

/** `creditsGained`: the net-worth change the usage bought (null: not known); `priced`: false when the cost is unknown. */
export function usageJson(
  usage: Pick<Usage, 'promptTokens' | 'completionTokens' | 'costUsd'> & { cachedTokens?: number },
  economy: { creditsGained: number | null; priced?: boolean } = { creditsGained: null },
): UsageJson {
  const tokens = usage.promptTokens + usage.completionTokens;
  return {
    tokens,
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    cached_prompt_tokens: usage.cachedTokens ?? 0,
    cost_usd: usage.costUsd,
    credits_per_1k_tokens: creditsPer1kTokens(economy.creditsGained, tokens),
    usd_per_1k_credits: usdPer1kCredits(usage.costUsd, economy.creditsGained, economy.priced ?? true),
  };
}

// ---- the figures of a stored session (or of one run in it) ----

/** The game's busy ticks over the ticks the captain was alive, for one autoplay run, stored with the session. */
export interface ServerTicks {
  /** The run's start: the turn before its first (its start snapshot's turn). */
  fromTurn: number;
  busy: number;
  alive: number;
}

const SERVER_TICKS_KEY = 'serverTicks';

/** The game's busy ticks stored with a session (the runs that started at or after `fromTurn`). */
export function storedServerTicks(extra: Record<string, unknown>, fromTurn = 0): ServerTicks[] {
  const stored = extra[SERVER_TICKS_KEY];
  if (!Array.isArray(stored)) return [];
  return stored.filter(
    (entry): entry is ServerTicks =>
      typeof entry === 'object' &&
      entry !== null &&
      typeof (entry as ServerTicks).busy === 'number' &&
      typeof (entry as ServerTicks).alive === 'number' &&
      typeof (entry as ServerTicks).fromTurn === 'number' &&
      (entry as ServerTicks).fromTurn >= fromTurn,
  );
}

/** The session's extra with one run's busy ticks added (a run that starts at the same turn replaces its entry). */
export function withServerTicks(extra: Record<string, unknown>, run: ServerTicks): Record<string, unknown> {
  const kept = storedServerTicks(extra).filter((entry) => entry.fromTurn !== run.fromTurn);
  return { ...extra, [SERVER_TICKS_KEY]: [...kept, run] };
}

export interface StoredFigures {
  /** Turns stored in the span, the handoff turn included (every view counts it). */
  turns: number;
  /** From the first turn's start to the last turn's end; null without a turn. */
  durationMs: number | null;
  /** The first dashboard (sessions stored without a start snapshot), then one point per stored snapshot. */
  points: FigurePoint[];
  figures: SessionFigures<FigurePoint>;
  /** Market bids seen by the end (the game's own prices, the table for items no market showed), or the table alone. */
  netWorthPricing: NetWorthPricing | null;
  /** The game's busy ÷ alive when stored with the session; else Skipper's estimate over the same ticks. */
  utilisation: TickUtilisation | undefined;
  /** Successful actions in the whole transcript, and those between the first and the last point with their ticks. */
  actions: number;
  actionsInSpan: number;
  actionTicks: number;
  toolCalls: number;
  failedCalls: number;
  errorsByCode: Record<string, number>;
  usage: UsageTotals;
}

/**
 * The figures of a stored session — or, with `fromTurn`, of the run that started after that turn (its start
 * snapshot is that turn's) — the one place every view takes them from. `transcript`: the session's reader kept by a
 * caller that asks again (the bridge), so only the messages stored since its last read are read.
 */
export async function storedFigures(
  store: FiguresStore,
  nameOrId: string,
  options: { fromTurn?: number; transcript?: TranscriptReader } = {},
): Promise<StoredFigures> {
  const session = await store.getSession(nameOrId);
  const fromTurn = options.fromTurn ?? 0;
  const reader = options.transcript?.sessionId === session.id ? options.transcript : undefined;
  const scan = reader ? await reader.read() : await scanTranscript(store, session.id);
  const snapshots = (await store.snapshots(session.id)).filter((snapshot) => snapshot.turn >= fromTurn);
  // Autoplay stores the state it started from as its start turn's snapshot: every figure runs between stored
  // snapshots. Older sessions (and chat) start at the first dashboard seen.
  const firstState = fromTurn > 0 || snapshots[0]?.turn === 0 ? undefined : scan.firstState;
  const points = figurePoints(snapshots, firstState);
  const figures = sessionFigures(points);
  const spanned = actionsInSpan(scan.actionsSeen, snapshots, firstState);
  const actionTicks = spanned.reduce((sum, action) => sum + action.ticks, 0);
  const turns = (await store.turns(session.id)).filter((turn) => turn.turn > fromTurn);
  const lastTurn = points.at(-1)?.turn;
  return {
    turns: turns.length,
    durationMs: turns.length === 0 ? null : Math.max(0, (turns.at(-1)?.endedAt ?? 0) - (turns[0]?.startedAt ?? 0)),
    points,
    figures,
    netWorthPricing:
      lastTurn === undefined ? null : scan.marketTurns.some((turn) => turn <= lastTurn) ? 'market' : 'price-table',
    utilisation: utilisationOf(storedServerTicks(session.extra, fromTurn), actionTicks, figures.ticks),
    actions: scan.actionsSeen.length,
    actionsInSpan: spanned.length,
    actionTicks,
    toolCalls: scan.toolCalls,
    failedCalls: scan.failedCalls,
    errorsByCode: scan.errorsByCode,
    usage: await store.usageTotals(session.id),
  };
}

/** The game's figure when it counted ticks alive in these runs; otherwise Skipper's estimate (tickUtilisation). */
function utilisationOf(
  server: readonly ServerTicks[],
  actionTicks: number,
  ticks: number | null,
): TickUtilisation | undefined {
  const busy = server.reduce((sum, run) => sum + run.busy, 0);
  const alive = server.reduce((sum, run) => sum + run.alive, 0);
  return tickUtilisation({
    ...(alive > 0 ? { server: { busy, alive } } : {}),
    actionTicks,
    ticksElapsed: ticks ?? undefined,
  });
}

function figurePoints(snapshots: readonly SnapshotRecord[], firstState: TranscriptScan['firstState']): FigurePoint[] {
  const points: FigurePoint[] = [];
  if (firstState)
    points.push({ turn: 0, tick: firstState.tick, credits: firstState.credits, netWorth: firstState.netWorth });
  for (const snapshot of snapshots) {
    points.push({ turn: snapshot.turn, tick: snapshot.tick, credits: snapshot.credits, netWorth: snapshot.netWorth });
  }
  return points;
}

/**
 * The actions over the span the ticks are measured on: after the first point (a dashboard in a result, else the end
 * of the first snapshotted turn) and up to the last snapshot. Counting the actions before the first known tick too
 * (SpaceMolt's text has no tick: the first point is turn 1's snapshot) made more busy ticks than ticks.
 */
function actionsInSpan(
  actionsSeen: readonly ActionSeen[],
  snapshots: readonly SnapshotRecord[],
  firstState: TranscriptScan['firstState'],
): ActionSeen[] {
  const lastTurn = snapshots.at(-1)?.turn;
  const inSpan = (action: ActionSeen): boolean =>
    (firstState ? action.order > firstState.order : action.turn > (snapshots[0]?.turn ?? Infinity)) &&
    lastTurn !== undefined &&
    action.turn <= lastTurn;
  return actionsSeen.filter(inSpan);
}

/** The figures every view writes under the same names: `sessions --json`, `report --json`, the `autoplay-end` event
 * and the export header. */
export interface StoredFiguresJson extends FiguresJson, UsageJson {
  turns: number;
  duration_ms: number | null;
  net_worth_pricing: NetWorthPricing | null;
  tick_utilisation: number | null;
  tick_utilisation_source: TickUtilisation['source'] | null;
}

/** `priced`: false when the session's model has no known price (its USD per 1,000 credits is then null, not 0). */
export function storedFiguresJson(stored: StoredFigures, options: { priced?: boolean } = {}): StoredFiguresJson {
  return {
    turns: stored.turns,
    duration_ms: stored.durationMs,
    ...figuresJson(stored.figures),
    net_worth_pricing: stored.netWorthPricing,
    tick_utilisation: stored.utilisation?.value ?? null,
    tick_utilisation_source: stored.utilisation?.source ?? null,
    ...usageJson(stored.usage, { creditsGained: stored.figures.netWorthChange, priced: options.priced ?? true }),
  };
}
