// The status line: credits, fuel, cargo, hull, tick, tokens and cost on one line.
import type { ChalkInstance } from 'chalk';
import type { FlightPlan, Usage } from '../shared/index.js';
import type { GameState } from '../session/index.js';
import { formatTokens, formatUsd } from './text.js';

export function formatStatusLine(options: { state: GameState | undefined; usage: Usage; chalk: ChalkInstance; busy?: string; plan?: FlightPlan }): string {
  const { state, usage, chalk } = options;
  const parts: string[] = [];
  if (options.busy) parts.push(chalk.cyan(options.busy));
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
