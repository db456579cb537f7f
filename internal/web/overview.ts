// The fleet overview (`GET /api/overview`): one row per captain and one for all of them — credits and net worth per
// hour, tokens and USD per 1,000 credits, game queries per minute against the game's limit, IP health and refusals —
// and a one-line verdict on whether the fleet earns more than it costs. Every figure comes from the card's stored
// figures (storedFigures, what `skipper report --json` writes), never measured a second way. Time base: the session's
// played time, its `duration_ms` (the first stored turn's start to the last one's end); a rate over an unknown or
// empty played time is null. What is not known is null, never 0: a ratio per 1,000 credits when nothing was gained.
import { DEFAULT_QUERY_BUDGET, isRejection } from '../game/index.js';
import { storedModelPriced } from '../provider/index.js';
import { usdPer1kCredits } from '../shared/index.js';
import type { FleetRecord } from '../store/index.js';
import type { CaptainCard } from './bridge.js';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/**
 * The game's query limit per account, per minute: the window Skipper keeps for every game connection (SpaceMolt's
 * 300 queries a minute, QueryBudget). The store does not say whether a session ran on turbo minimolt, where the window
 * is off, so a captain's limit is this one.
 */
export const QUERY_LIMIT_PER_MIN = (DEFAULT_QUERY_BUDGET.queriesPerWindow * MINUTE_MS) / DEFAULT_QUERY_BUDGET.windowMs;

export interface OverviewFigures {
  /** Played time (ms): the time base of every rate; null when no turn was stored. */
  playedMs: number | null;
  creditsChange: number | null;
  netWorthChange: number | null;
  creditsPerHour: number | null;
  netWorthPerHour: number | null;
  costUsd: number;
  usdPerHour: number | null;
  tokens: number;
  /** Per 1,000 credits of net worth gained; null when none was gained (or the gain is not known). */
  tokensPer1kCredits: number | null;
  usdPer1kCredits: number | null;
  /** Calls that were not actions (queries, and refused calls): what the game's query window counts, at most. */
  queries: number | null;
  queriesPerMin: number | null;
  queryLimitPerMin: number | null;
  /** Tool results the game refused, and of them those it counts against the IP (rate limits, refused sessions). */
  refusals: number | null;
  ipRefusals: number | null;
  /** The machine's IP health (0–100) as the captain's fleet last wrote it; null outside a fleet. */
  ipHealth: number | null;
}

export interface OverviewRow extends OverviewFigures {
  sessionId: string;
  name: string;
  fleet: string | null;
  state: string;
  model: string;
  /** false when the model's price is not known (its USD per 1,000 credits is then null). */
  priced: boolean;
}

export interface FleetHealthRow {
  fleet: string;
  state: string;
  ipHealth: number | null;
  rejectionsInWindow: number | null;
  rejections: number | null;
  loginsInWindow: number | null;
  loginsPerWindow: number | null;
}

export interface Verdict {
  word: 'earning' | 'losing' | 'even' | 'unknown';
  text: string;
}

export interface Overview {
  timeBase: string;
  captains: OverviewRow[];
  /** The captains summed: changes and rates over the captains whose figure is known (they play side by side, so
   * the fleet's rate is the sum of theirs), ratios from the sums. */
  fleet: OverviewFigures & { captains: number };
  fleets: FleetHealthRow[];
  verdict: Verdict;
}

export const TIME_BASE = "played time: the first stored turn's start to the last one's end (duration_ms)";

/** `change` per hour of `playedMs`; null when either is unknown or nothing was played. */
export function perHour(change: number | null, playedMs: number | null): number | null {
  if (change === null || playedMs === null || playedMs <= 0) return null;
  return change / (playedMs / HOUR_MS);
}

/** Tokens per 1,000 credits gained; null when nothing (or nothing known) was gained. */
export function tokensPer1kCredits(tokens: number, gained: number | null): number | null {
  return gained !== null && Number.isFinite(gained) && gained > 0 ? (tokens / gained) * 1000 : null;
}

function numberOr(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function ipRefusalsOf(errorsByCode: Record<string, number>): number {
  let count = 0;
  for (const [code, times] of Object.entries(errorsByCode))
    if (isRejection({ kind: 'answer', result: { text: '', isError: true, code } })) count += times;
  return count;
}

/** What the captain's game calls say: queries per minute of played time against the limit, and refusals. */
function callFigures(
  calls: CaptainCard['calls'],
  playedMs: number | null,
): Pick<OverviewFigures, 'queries' | 'queriesPerMin' | 'queryLimitPerMin' | 'refusals' | 'ipRefusals'> {
  if (!calls)
    return {
      queries: null,
      queriesPerMin: null,
      queryLimitPerMin: QUERY_LIMIT_PER_MIN,
      refusals: null,
      ipRefusals: null,
    };
  const queries = Math.max(0, calls.toolCalls - calls.actions);
  return {
    queries,
    queriesPerMin: playedMs === null || playedMs <= 0 ? null : queries / (playedMs / MINUTE_MS),
    queryLimitPerMin: QUERY_LIMIT_PER_MIN,
    // The fleet writes the IP's refusals in a window, not per captain: a captain's are its stored tool results
    // refused with a code the game counts against the IP (errorsByCode of its stored figures).
    refusals: calls.failedCalls,
    ipRefusals: ipRefusalsOf(calls.errorsByCode),
  };
}

function captainRow(card: CaptainCard, health: Map<string, FleetHealthRow>): OverviewRow {
  const figures = card.figures;
  const playedMs = figures?.duration_ms ?? null;
  const creditsChange = figures?.credits_change ?? null;
  const netWorthChange = figures?.net_worth_change ?? null;
  const costUsd = figures?.cost_usd ?? card.costUsd;
  const tokens = figures?.tokens ?? card.tokens;
  const priced = tokens === 0 || costUsd > 0 || storedModelPriced(card.model);
  const fleet = card.fleet;
  return {
    sessionId: card.sessionId,
    name: card.name,
    fleet: fleet?.fleet ?? null,
    state: fleet?.state ?? card.status,
    model: card.model,
    priced,
    playedMs,
    creditsChange,
    netWorthChange,
    creditsPerHour: perHour(creditsChange, playedMs),
    netWorthPerHour: perHour(netWorthChange, playedMs),
    costUsd,
    usdPerHour: perHour(costUsd, playedMs),
    tokens,
    tokensPer1kCredits: tokensPer1kCredits(tokens, netWorthChange),
    usdPer1kCredits: usdPer1kCredits(costUsd, netWorthChange, priced),
    ...callFigures(card.calls, playedMs),
    ipHealth: fleet ? (health.get(fleet.fleet)?.ipHealth ?? null) : null,
  };
}

/** The sum of the values known; null when none is. */
function knownSum(values: ReadonlyArray<number | null>): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : known.reduce((sum, value) => sum + value, 0);
}

function fleetRow(rows: readonly OverviewRow[], fleets: readonly FleetHealthRow[]): Overview['fleet'] {
  const netWorthChange = knownSum(rows.map((row) => row.netWorthChange));
  const costUsd = rows.reduce((sum, row) => sum + row.costUsd, 0);
  const tokens = rows.reduce((sum, row) => sum + row.tokens, 0);
  const priced = rows.every((row) => row.priced);
  const limits = rows.filter((row) => row.queriesPerMin !== null);
  const health = fleets.map((fleet) => fleet.ipHealth).filter((value): value is number => value !== null);
  const played = rows.map((row) => row.playedMs).filter((value): value is number => value !== null);
  return {
    captains: rows.length,
    playedMs: played.length === 0 ? null : Math.max(...played),
    creditsChange: knownSum(rows.map((row) => row.creditsChange)),
    netWorthChange,
    creditsPerHour: knownSum(rows.map((row) => row.creditsPerHour)),
    netWorthPerHour: knownSum(rows.map((row) => row.netWorthPerHour)),
    costUsd,
    usdPerHour: knownSum(rows.map((row) => row.usdPerHour)),
    tokens,
    tokensPer1kCredits: tokensPer1kCredits(tokens, netWorthChange),
    usdPer1kCredits: usdPer1kCredits(costUsd, netWorthChange, priced),
    queries: knownSum(rows.map((row) => row.queries)),
    queriesPerMin: knownSum(limits.map((row) => row.queriesPerMin)),
    // Each account has its own window: the fleet may send the sum of its captains'.
    queryLimitPerMin: limits.length === 0 ? null : knownSum(limits.map((row) => row.queryLimitPerMin)),
    refusals: knownSum(rows.map((row) => row.refusals)),
    ipRefusals: knownSum(rows.map((row) => row.ipRefusals)),
    // The weakest IP of the fleets shown.
    ipHealth: health.length === 0 ? null : Math.min(...health),
  };
}

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const dollars = (value: number): string => `$${value.toFixed(2)}`;

/** One line: does the fleet earn more than it costs? ("earning: +12,300 net worth/h for $0.42/h — $0.03 per 1,000
 * credits"; "losing: net worth falling …"). */
export function verdictOf(fleet: OverviewFigures): Verdict {
  const rate = fleet.netWorthPerHour;
  const change = fleet.netWorthChange;
  if (change === null)
    return { word: 'unknown', text: 'unknown: no net worth read yet (the figures come once a captain has played)' };
  const cost = fleet.usdPerHour === null ? dollars(fleet.costUsd) : `${dollars(fleet.usdPerHour)}/h`;
  if (change > 0) {
    const gain = rate === null ? `+${grouped.format(change)} net worth` : `+${grouped.format(rate)} net worth/h`;
    const ratio =
      fleet.costUsd === 0
        ? 'costs nothing (no model spend)'
        : fleet.usdPer1kCredits === null
          ? 'price of the model unknown'
          : `${dollars(fleet.usdPer1kCredits)} per 1,000 credits`;
    return { word: 'earning', text: `earning: ${gain} for ${cost} — ${ratio}` };
  }
  if (change < 0) {
    const fall = rate === null ? `${grouped.format(-change)} lost` : `${grouped.format(rate).replace('-', '−')}/h`;
    return { word: 'losing', text: `losing: net worth falling (${fall}) for ${cost}` };
  }
  return { word: 'even', text: `even: net worth unchanged for ${cost}` };
}

function fleetHealth(fleet: FleetRecord): FleetHealthRow {
  const health = fleet.health;
  return {
    fleet: fleet.name,
    state: fleet.state,
    ipHealth: numberOr(health.ipHealth),
    rejectionsInWindow: numberOr(health.rejectionsInWindow),
    rejections: numberOr(health.rejections),
    loginsInWindow: numberOr(health.loginsInWindow),
    loginsPerWindow: numberOr(health.loginsPerWindow),
  };
}

/** The overview of the captains the page knows, with the fleets' rows (their IP health as the broker wrote it). */
export function fleetOverview(cards: readonly CaptainCard[], fleets: readonly FleetRecord[]): Overview {
  const fleetRows = fleets.map(fleetHealth);
  const health = new Map(fleetRows.map((row) => [row.fleet, row]));
  const captains = cards.map((card) => captainRow(card, health));
  const fleet = fleetRow(captains, fleetRows);
  return { timeBase: TIME_BASE, captains, fleet, fleets: fleetRows, verdict: verdictOf(fleet) };
}
