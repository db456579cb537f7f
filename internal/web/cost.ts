// Cost over time for the page's cost plot: each captain's running total of model cost (one step per model round the
// store recorded), and the fleet's sum. A captain without model rounds (the autopilot) gets a flat line at 0 over the
// plotted span, so "costs nothing" is shown rather than left out. Series are thinned to a bounded number of points:
// a running total stays monotone when points are dropped, so the line keeps its shape.
import type { Store, UsagePoint } from '../store/index.js';
import type { CaptainCard } from './bridge.js';

/** [epoch ms, running total USD]. */
export type CostPoint = [number, number];

export interface CaptainCost {
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
  const captains = cards.map((card, index) => {
    const points = runningCost(rounds[index]!, span);
    return { sessionId: card.sessionId, name: card.name, totalUsd: points.at(-1)![1], points: thin(points) };
  });
  const all = rounds.flat().sort((a, b) => a.createdAt - b.createdAt);
  return { from, to: now, captains, fleet: thin(runningCost(all, span)) };
}
