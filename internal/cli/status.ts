// The status line: credits, fuel, cargo, hull, tick, tokens and cost on one line.
import type { ChalkInstance } from 'chalk';
import type { Usage } from '../shared/index.js';
import type { FlightPlan } from '../spacemolt/index.js';
import type { GameState } from '../session/index.js';
import { formatCost, formatTokens } from './text.js';

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
  /** The model is being asked: a spinner with the time it has taken, and the tail of its reasoning as it streams. */
  thinking?: ThinkingShown;
  now?: number;
}): string {
  const { state, usage, chalk } = options;
  const parts: string[] = [];
  if (options.thinking) parts.push(thinkingLabel(options.thinking, options.now ?? Date.now(), chalk));
  else if (options.busy) parts.push(chalk.cyan(options.busy));
  const progress = autoplayProgress(options.autoplay, state?.tick, options.now ?? Date.now());
  if (progress) parts.push(chalk.cyan(progress));
  if (state) parts.push(...shipParts(state, chalk));
  if (options.plan) parts.push(chalk.magenta(`plan: ${planLabel(options.plan)}`));
  parts.push(chalk.dim(`${formatTokens(usage.promptTokens + usage.completionTokens)} tok ${formatCost(usage)}`));
  return parts.join(chalk.dim(' · '));
}

/** The ship as the game last said: credits, fuel and hull (red when low), cargo, where it is, the tick. */
function shipParts(state: GameState, chalk: ChalkInstance): string[] {
  const parts: string[] = [];
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
  return parts;
}

/** The plan, short enough for the status line: `mine iron_ore → base_sol`, `explore`. */
export function planLabel(plan: FlightPlan): string {
  if (plan.strategy === 'explore') return plan.systems?.length ? `explore ${plan.systems.join(', ')}` : 'explore';
  return `mine${plan.resource ? ` ${plan.resource}` : ''}${plan.sellAt ? ` → ${plan.sellAt}` : ''}`;
}

/** `tick 37/120 · 2m10s left` while autoplay runs with limits; undefined without. */
export function autoplayProgress(
  limits: AutoplayLimitsShown | undefined,
  tick: number | undefined,
  now: number,
): string | undefined {
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

export interface ThinkingShown {
  /** Epoch ms when the model was asked. */
  since: number;
  /** Reasoning streamed so far (only its tail is shown). */
  reasoning: string;
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** `⠹ thinking 2.4s ⋯ …the tail of the reasoning` (the reasoning dimmed). */
export function thinkingLabel(thinking: ThinkingShown, now: number, chalk: ChalkInstance): string {
  const elapsed = Math.max(0, now - thinking.since);
  const frame = SPINNER[Math.floor(elapsed / 100) % SPINNER.length] ?? '⟳';
  const label = chalk.cyan(`${frame} thinking ${(elapsed / 1000).toFixed(1)}s`);
  const reasoning = thinking.reasoning.replace(/\s+/g, ' ').trim();
  if (reasoning === '') return label;
  const tail = reasoning.length > 48 ? `…${reasoning.slice(-47)}` : reasoning;
  return `${label} ${chalk.dim.italic(`⋯ ${tail}`)}`;
}
