// The REPL's slash commands: the table /help prints, one handler per command, and the "did you mean" hint for a
// typo. What a command does to the running turn or autoplay (quit, stop, start) stays in the REPL, behind controls.
import type { ChalkInstance } from 'chalk';
import type { GameState, SessionRunner } from '../session/index.js';
import { GOAL_MAX_CHARS, textTooLong } from '../shared/index.js';
import { describePlan, type FlightPlan } from '../spacemolt/index.js';
import type { Output } from './output.js';
import { formatStatusLine } from './status.js';
import { formatCost, formatTokens } from './text.js';

export const SLASH_COMMANDS: Record<string, string> = {
  '/help': 'this list',
  '/autoplay [goal]':
    'play unattended until /stop or Ctrl+C (lines you type meanwhile become orders for the next turn)',
  '/stop': 'stop autoplay (the running turn is cancelled)',
  '/status': 'game state, session, model',
  '/cost': 'tokens and cost of this session',
  '/memory': 'what the captain will remember next turn',
  '/clear': 'clear the screen (the session and its history stay)',
  '/model ID': 'switch model, e.g. /model openai/gpt-4o-mini or /model builtin/autopilot',
  '/planner [on|off]': 'planner mode for /autoplay: your model sets plans, the autopilot flies them (few model calls)',
  '/retry': 'send your last line again (after a failed turn)',
  '/quit': 'leave (Ctrl+D works too)',
};

export interface SlashCommandContext {
  runner: SessionRunner;
  output: Output;
  chalk: ChalkInstance;
  memory?: () => Promise<string>;
  planner?: PlannerControls;
  switchModel: (id: string) => void;
  describeModel: () => string;
  /** The REPL's own controls: they touch the turn in flight and autoplay, which only the REPL holds. */
  quit: () => void;
  startAutoplay: (goal: string) => void;
  /** Sends the last line said to the captain again. */
  retry: () => void;
  stop: () => void;
}

/** Planner mode as chat sees it: whether /autoplay uses it, switching it, and the plan in force. */
export interface PlannerControls {
  enabled(): boolean;
  /** Switches it; returns why not when it cannot be (a built-in model, a game the autopilot cannot fly). */
  set(on: boolean): string | undefined;
  plan(): FlightPlan | undefined;
  /** The model that plans (while planner autoplay runs the runner's provider is the autopilot flying the plan). */
  model?(): string;
}

/**
 * Runs one slash command line. Returns 'prompt' when the REPL should show its prompt again, 'handled' when the
 * command itself decides what comes next (quitting, starting or stopping autoplay), or a promise for a command that
 * answers later (/status asks the game): the REPL holds the lines after it (piped `/status` then `/quit`) until then.
 */
export function runSlashCommand(line: string, context: SlashCommandContext): 'prompt' | 'handled' | Promise<void> {
  const { runner, output, chalk } = context;
  const [name = '', ...rest] = line.trim().split(/\s+/);
  const argument = rest.join(' ');
  switch (name) {
    case '/help':
      output.line(chalk.bold('Commands:'));
      for (const [usage, text] of Object.entries(SLASH_COMMANDS))
        output.line(`  ${usage.padEnd(18)} ${chalk.dim(text)}`);
      output.line(
        chalk.dim(
          'Anything else is said to your captain. End a line with \\ to go on on the next; Ctrl+R searches what you typed before; ' +
            'Ctrl+C cancels a running turn, twice at the prompt exits.',
        ),
      );
      return 'prompt';
    case '/quit':
    case '/exit':
      context.quit();
      return 'handled';
    case '/autoplay': {
      const problem = textTooLong(argument, 'the goal', GOAL_MAX_CHARS);
      if (problem) {
        output.error(`${problem} (autoplay not started)`);
        return 'prompt';
      }
      context.startAutoplay(argument);
      return 'handled';
    }
    case '/stop':
      context.stop();
      return 'handled';
    case '/retry':
      context.retry();
      return 'handled';
    case '/status':
      return statusCommand(context);
    case '/planner':
      plannerCommand(argument, context);
      return 'prompt';
    case '/clear':
      output.clearScreen?.();
      return 'prompt';
    case '/cost': {
      const usage = runner.usage;
      output.line(
        `tokens: ${formatTokens(usage.promptTokens)} in (${formatTokens(usage.cachedTokens)} cached) · ${formatTokens(usage.completionTokens)} out · cost ${formatCost(usage)}`,
      );
      return 'prompt';
    }
    case '/memory':
      return memoryCommand(context);
    case '/model':
      switchModel(argument, context);
      return 'prompt';
    default: {
      const hint = closestCommand(name);
      output.line(chalk.yellow(`unknown command ${name}${hint ? ` — did you mean ${hint}?` : ''} (/help lists them)`));
      return 'prompt';
    }
  }
}

/** /memory: what the captain will remember next turn (read from the store). */
async function memoryCommand(context: SlashCommandContext): Promise<void> {
  const { output, chalk } = context;
  if (!context.memory) return output.line(chalk.dim('memory is not available'));
  output.line((await context.memory()) || chalk.dim('(nothing remembered yet)'));
}

/** /status asks the game afresh (a free query) when no turn is running, or when one runs and nothing is known yet
 * (its first look has not come back); otherwise it shows the last known state and says how old it is. */
async function statusCommand(context: SlashCommandContext): Promise<void> {
  const { runner, output, chalk } = context;
  const before = runner.state;
  const ask = !runner.busy || before === undefined;
  const state = ask ? await runner.refreshState().catch(() => before) : before;
  output.line(stateLine(context, state, state !== undefined && state !== before)); // a refresh makes a new state
  // In planner mode both play: the model named is the one that plans, not the autopilot that flies its plans.
  const planning = context.planner?.enabled() ? context.planner.model?.() : undefined;
  const model = planning
    ? `planner mode: model ${planning} plans, the autopilot flies`
    : `model ${context.describeModel()}`;
  output.line(chalk.dim(`session ${runner.sessionName} · ${runner.turns} turns · ${model}`));
  const plan = context.planner?.plan();
  if (plan)
    output.line(`plan: ${describePlan(plan)}${context.planner?.enabled() ? '' : chalk.dim(' (planner mode off)')}`);
}

/** The state as /status shows it: fresh, or as of its tick and why it is old; or why there is none yet. */
function stateLine(context: SlashCommandContext, state: GameState | undefined, fresh: boolean): string {
  const { runner, chalk } = context;
  if (!state)
    return chalk.dim(
      runner.busy
        ? 'no game state yet: the running turn has not read it (the game did not say it now either)'
        : 'no game state yet: ask your captain to look around',
    );
  // Why the figures are old: a turn runs, or the game could not be asked (not logged in yet after a resume: the
  // captain logs in on its first turn).
  const problem = runner.busy ? undefined : runner.refreshProblem;
  const why = runner.busy ? 'a turn is running' : (problem?.reason ?? 'the game did not answer');
  const hint =
    problem?.code === 'not_authenticated' ? ', not logged in yet: the captain logs in on its first turn' : '';
  const age = fresh
    ? ''
    : chalk.dim(` (as of ${state.tick !== undefined ? `tick ${state.tick}` : 'the last result'}: ${why}${hint})`);
  return formatStatusLine({ state, usage: runner.usage, chalk }) + age;
}

function plannerCommand(argument: string, context: SlashCommandContext): void {
  const { output, chalk, planner } = context;
  if (!planner) {
    output.line(chalk.yellow('planner mode is not available here'));
    return;
  }
  if (argument !== '' && argument !== 'on' && argument !== 'off') {
    output.line(chalk.yellow(`/planner takes on or off, not "${argument}"`));
    return;
  }
  if (argument !== '') {
    const refused = planner.set(argument === 'on');
    if (refused) {
      output.error(chalk.red(refused));
      return;
    }
  }
  const plan = planner.plan();
  output.line(
    planner.enabled()
      ? `planner mode on: /autoplay lets ${context.describeModel()} set plans that the autopilot flies every tick${plan ? ` · plan: ${describePlan(plan)}` : ' · no plan yet'}`
      : 'planner mode off: /autoplay plays every turn with the model (/planner on to switch)',
  );
}

function switchModel(argument: string, context: SlashCommandContext): void {
  const { output, chalk } = context;
  if (!argument) {
    output.line(`model: ${context.describeModel()} · switch with /model PROVIDER/MODEL`);
    return;
  }
  try {
    context.switchModel(argument);
    output.line(chalk.dim(`model switched to ${context.describeModel()}`));
  } catch (error) {
    output.error(chalk.red((error as Error).message));
  }
}

/** The known command nearest to a typo, when it is near enough to be what was meant. */
export function closestCommand(command: string): string | undefined {
  const names = Object.keys(SLASH_COMMANDS).map((key) => key.split(' ')[0] ?? key);
  let best: string | undefined;
  let bestScore = Infinity;
  for (const name of names) {
    const score = editDistance(command, name);
    if (score < bestScore) {
      best = name;
      bestScore = score;
    }
  }
  return bestScore <= 3 ? best : undefined;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    let previous = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const current = row[j] ?? 0;
      row[j] = Math.min((row[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length] ?? 0;
}

/** Tab completion for readline: slash command names that start with what was typed (nothing for chat text). */
export function completeSlashCommand(line: string): [string[], string] {
  if (!line.startsWith('/') || /\s/.test(line)) return [[], line];
  const names = Object.keys(SLASH_COMMANDS).map((usage) => usage.split(' ')[0]!);
  const hits = names.filter((name) => name.startsWith(line));
  return [hits.length > 0 ? hits : names, line];
}
