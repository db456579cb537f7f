// Cost over time for the page's cost plot: each captain's running total of model cost (one step per model round the
// store recorded), and the fleet's sum. A captain without model rounds (the autopilot) gets a flat line at 0 over the
// plotted span, so "costs nothing" is shown rather than left out. Series are thinned to a bounded number of points:
// a running total stays monotone when points are dropped, so the line keeps its shape. Beside each cost: the cached
// prompt tokens in it, credits gained per 1,000 tokens and USD per 1,000 credits gained (null where undefined).
import { storedModelPriced } from '../provider/index.js';
import { creditsPer1kTokens, usdPer1kCredits } from '../shared/index.js';
import type { Store, UsagePoint, UsageTotals } from '../store/index.js';
import type { CaptainCard } from './bridge.js';

/** [epoch ms, running total USD]. */
export type CostPoint = [number, number];

/** What a cost bought, under the names every `--json` output uses. */
export interface CostEconomy {
  tokens: number;
  cached_prompt_tokens: number;
  /** false when the model's price is not known (its USD per 1,000 credits is then null). */
  priced: boolean;
  /** Net worth gained since the first snapshot; null before one is known. */
  net_worth_change: number | null;
  credits_per_1k_tokens: number | null;
  usd_per_1k_credits: number | null;
}

export interface CaptainCost extends CostEconomy {
  sessionId: string;
  name: string;
  totalUsd: number;
  points: CostPoint[];
}

export interface CostPlot {
  from: number;
  to: number;
  captains: CaptainCost[];
  fleet: CostPoint[];
  /** The captains' figures summed (a gain counts only captains whose gain is known). */
  fleet_economy: CostEconomy & { cost_usd: number };
}

export const MAX_POINTS = 200;

/** Running totals of the rounds, starting at 0 at `from` and held until `to`. */
export function runningCost(points: readonly UsagePoint[], span: { from: number; to: number }): CostPoint[] {
  const series: CostPoint[] = [[span.from, 0]];
  let total = 0;
  for (const point of points) {
    total += point.costUsd;
    series.push([point.createdAt, total]);
  }
  series.push([Math.max(span.to, series.at(-1)![0]), total]);
  return series;
}

/** At most `max` points: evenly spaced picks, always keeping the first and the last. */
export function thin(series: readonly CostPoint[], max = MAX_POINTS): CostPoint[] {
  if (series.length <= max) return [...series];
  const picked: CostPoint[] = [];
  const step = (series.length - 1) / (max - 1);
  for (let index = 0; index < max; index++) picked.push(series[Math.round(index * step)]!);
  return picked;
}

/** The cost plot of the captains the page knows (`now` is the right edge). */
export async function costPlot(store: Store, cards: readonly CaptainCard[], now: number): Promise<CostPlot> {
  const rounds: UsagePoint[][] = [];
  for (const card of cards) rounds.push(await store.usageSeries(card.sessionId));
  const starts = cards.map((card, index) => Math.min(card.createdAt, rounds[index]![0]?.createdAt ?? Infinity));
  const from = starts.length > 0 ? Math.min(...starts) : now;
  const span = { from, to: now };
  const captains: CaptainCost[] = [];
  for (const [index, card] of cards.entries()) {
    const points = runningCost(rounds[index]!, span);
    const totals = await store.usageTotals(card.sessionId);
    const gain = card.snapshot && card.net_worth_start !== null ? card.snapshot.netWorth - card.net_worth_start : null;
    captains.push({
      sessionId: card.sessionId,
      name: card.name,
      totalUsd: points.at(-1)![1],
      points: thin(points),
      ...economy(totals, gain, priced(card.model, totals)),
    });
  }
  const all = rounds.flat().sort((a, b) => a.createdAt - b.createdAt);
  const fleet = thin(runningCost(all, span));
  return { from, to: now, captains, fleet, fleet_economy: fleetEconomy(captains, fleet.at(-1)![1]) };
}

/** A cost is known when the model's price is (the table knows it, it is local or built in) or a cost was counted. */
function priced(model: string, totals: UsageTotals): boolean {
  return totals.promptTokens + totals.completionTokens === 0 || totals.costUsd > 0 || storedModelPriced(model);
}

function economy(totals: UsageTotals, gain: number | null, isPriced: boolean): CostEconomy {
  const tokens = totals.promptTokens + totals.completionTokens;
  return {
    tokens,
    cached_prompt_tokens: totals.cachedTokens,
    priced: isPriced,
    net_worth_change: gain,
    credits_per_1k_tokens: creditsPer1kTokens(gain, tokens),
    usd_per_1k_credits: usdPer1kCredits(totals.costUsd, gain, isPriced),
  };
}

function fleetEconomy(captains: readonly CaptainCost[], costUsd: number): CostEconomy & { cost_usd: number } {
  const tokens = captains.reduce((sum, captain) => sum + captain.tokens, 0);
  const known = captains.filter((captain) => captain.net_worth_change !== null);
  const gain = known.length > 0 ? known.reduce((sum, captain) => sum + captain.net_worth_change!, 0) : null;
  const isPriced = captains.every((captain) => captain.priced);
  return {
    tokens,
    cached_prompt_tokens: captains.reduce((sum, captain) => sum + captain.cached_prompt_tokens, 0),
    cost_usd: costUsd,
    priced: isPriced,
    net_worth_change: gain,
    credits_per_1k_tokens: creditsPer1kTokens(gain, tokens),
    usd_per_1k_credits: usdPer1kCredits(costUsd, gain, isPriced),
  };
}
