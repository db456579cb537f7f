// The status line: credits, fuel, cargo, hull, tick, tokens and cost on one line.
import type { ChalkInstance } from 'chalk';
import type { FlightPlan, Usage } from '../shared/index.js';
import type { GameState } from '../session/index.js';
import { formatTokens, formatUsd } from './text.js';

/** Autoplay's limits as the status line counts against them. */
export interface AutoplayLimitsShown {
  startTick?: number;
  maxTicks?: number;
  /** Epoch ms when --duration ends. */
  endsAt?: number;
}

export function formatStatusLine(options: {
  state: GameState | undefined;
  usage: Usage;
  chalk: ChalkInstance;
  busy?: string;
  plan?: FlightPlan;
  autoplay?: AutoplayLimitsShown;
  now?: number;
}): string {
  const { state, usage, chalk } = options;
  const parts: string[] = [];
  if (options.busy) parts.push(chalk.cyan(options.busy));
  const progress = autoplayProgress(options.autoplay, state?.tick, options.now ?? Date.now());
  if (progress) parts.push(chalk.cyan(progress));
  if (state) {
    if (state.credits !== undefined) parts.push(`${chalk.yellow('¢')} ${state.credits}`);
    if (state.fuel !== undefined) {
      const low = state.maxFuel !== undefined && state.fuel < state.maxFuel * 0.25;
      const fuel = `fuel ${state.fuel}/${state.maxFuel ?? '?'}`;
      parts.push(low ? chalk.red(fuel) : fuel);
    }
    if (state.cargoUsed !== undefined) parts.push(`cargo ${state.cargoUsed}/${state.cargoCapacity ?? '?'}`);
    if (state.hull !== undefined) {
      const low = state.maxHull !== undefined && state.hull < state.maxHull * 0.5;
      const hull = `hull ${state.hull}/${state.maxHull ?? '?'}`;
      parts.push(low ? chalk.red(hull) : hull);
    }
    if (state.location) parts.push(chalk.dim(state.location + (state.docked ? ' (docked)' : '')));
    if (state.tick !== undefined) parts.push(chalk.dim(`tick ${state.tickEstimated ? '~' : ''}${state.tick}`));
  }
  if (options.plan) parts.push(chalk.magenta(`plan: ${planLabel(options.plan)}`));
  parts.push(chalk.dim(`${formatTokens(usage.promptTokens + usage.completionTokens)} tok ${formatUsd(usage.costUsd)}`));
  return parts.join(chalk.dim(' · '));
}

/** The plan, short enough for the status line: `mine iron_ore → base_sol`, `explore`. */
export function planLabel(plan: FlightPlan): string {
  if (plan.strategy === 'explore') return plan.systems?.length ? `explore ${plan.systems.join(', ')}` : 'explore';
  return `mine${plan.resource ? ` ${plan.resource}` : ''}${plan.sellAt ? ` → ${plan.sellAt}` : ''}`;
}

/** `tick 37/120 · 2m10s left` while autoplay runs with limits; undefined without. */
export function autoplayProgress(limits: AutoplayLimitsShown | undefined, tick: number | undefined, now: number): string | undefined {
  if (!limits) return undefined;
  const parts: string[] = [];
  if (limits.maxTicks !== undefined && limits.startTick !== undefined && tick !== undefined) {
    parts.push(`tick ${Math.max(0, tick - limits.startTick)}/${limits.maxTicks}`);
  }
  if (limits.endsAt !== undefined) parts.push(`${formatLeft(Math.max(0, limits.endsAt - now))} left`);
  return parts.length > 0 ? parts.join(' · ') : undefined;
}

function formatLeft(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
