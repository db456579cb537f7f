// The play command's modes: unattended autoplay (Ctrl+C / SIGTERM stop it with a summary) or the chat REPL, each
// ended with the captain's handoff for its memory.
import { join } from 'node:path';
import { tidyTerminal } from './output.js';
import { chatEndLine } from './invocation.js';
import { runRepl } from './repl.js';
import { summaryJson, summaryLines, withStoredFigures } from './summary.js';
import { type AutoplaySummary, type Captain } from '../session/index.js';
import { ExitCode, addUsage, isBuiltinProvider, type Provider, storePlaceOf } from '../shared/index.js';
import { canAutopilot, type ModelConfig } from '../provider/index.js';
import { modelConfigFor, type PlayBase } from './play-setup.js';

export interface PlayRun {
  base: PlayBase;
  captain: Captain;
  makeProvider: (model: ModelConfig) => Provider;
}

function autoplayWith(
  run: PlayRun,
  goal: string,
  signal: AbortSignal,
  options: { takeOrders?: () => string[]; planner?: boolean } = {},
): Promise<AutoplaySummary> {
  const { flags } = run.base;
  return run.captain.autoplay(
    {
      ...(flags.maxTicks !== undefined ? { maxTicks: flags.maxTicks } : {}),
      ...(flags.maxTurns !== undefined ? { maxTurns: flags.maxTurns } : {}),
      ...(flags.duration !== undefined ? { durationMs: flags.duration } : {}),
      ...(flags.budgetUsd !== undefined ? { budgetUsd: flags.budgetUsd } : {}),
      ...(flags.budgetTokens !== undefined ? { budgetTokens: flags.budgetTokens } : {}),
    },
    signal,
    {
      goal,
      ...(options.takeOrders ? { takeOrders: options.takeOrders } : {}),
      ...(options.planner ? { planner: true } : {}),
    },
  );
}

async function printSummary(run: PlayRun, ended: AutoplaySummary): Promise<void> {
  const { writeJson, output, chalk, flags } = run.base;
  const summary = await storedSummary(run, ended);
  // The commands it suggests look where this run looked: its --home and --db, when it was given them.
  const place = storePlaceOf(flags);
  if (writeJson) writeJson({ type: 'autoplay-end', ...summaryJson(summary, place) });
  else for (const line of summaryLines(summary, { chalk, place })) output.line(line);
}

/** The summary with the figures of the stored run (the captain's storedRun): every view reads one set of figures. A
 * run that stored nothing (no turn) keeps its own counts. */
async function storedSummary(run: PlayRun, summary: AutoplaySummary): Promise<AutoplaySummary> {
  try {
    const stored = await run.captain.storedRun(summary);
    return stored ? withStoredFigures(summary, stored) : summary;
  } catch (error) {
    run.base.logger.warn({ error: (error as Error).message }, 'stored figures unreadable; the summary shows the run');
    return summary;
  }
}

/** The handoff for the captain's memory; asks the model only when `askModel` (never after an interruption). */
function endSession(run: PlayRun, askModel: boolean, signal?: AbortSignal) {
  return run.captain.handoff({ askModel, mirror: run.base.config.captainsLog, ...(signal ? { signal } : {}) });
}

/** The stops a person asked for: a limit they set. */
const AT_A_LIMIT = new Set<string>(['max_turns', 'max_ticks', 'duration']);

/**
 * What a script reads from an autoplay that ended on its own: 0 when it ended for a reason the person asked for (a
 * limit or the budget they set), 1 when it ended because turns kept failing (the model or the game stayed down).
 */
export function autoplayExitCode(summary: Pick<AutoplaySummary, 'stopReason'>): number {
  return summary.stopReason.code === 'failures' ? ExitCode.failure : ExitCode.ok;
}

/** `--autoplay`: plays until a limit, Ctrl+C (exit 130) or SIGTERM (143), prints the summary, writes the handoff. */
export async function runAutoplayMode(run: PlayRun): Promise<number> {
  const { flags, output, chalk, json, fileLogger } = run.base;
  const controller = new AbortController();
  let interrupts = 0;
  const handoffController = new AbortController();
  let handingOff = false;
  // Ctrl+C is an interruption (130); SIGTERM is a termination (143), as shells report them.
  let interruptCode: number = ExitCode.interrupted;
  const onSignal = (): void => {
    interrupts += 1;
    if (handingOff && !handoffController.signal.aborted) {
      if (!json) output.line(chalk.yellow('\n^C skipping the handoff note (again to quit at once)…'));
      handoffController.abort();
    } else if (interrupts === 1) {
      if (!json) output.line(chalk.yellow('\n^C stopping autoplay (again to quit at once)…'));
      controller.abort();
    } else {
      fileLogger.flush();
      tidyTerminal();
      process.exit(interruptCode);
    }
  };
  const onInterrupt = (): void => onSignal();
  const onTerminate = (): void => {
    interruptCode = ExitCode.terminated;
    onSignal();
  };
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onTerminate);
  try {
    const goal = typeof flags.autoplay === 'string' ? flags.autoplay : '';
    const summary = await autoplayWith(run, goal, controller.signal, { planner: flags.planner === true });
    // The handoff comes before the summary (which is printed last, with how to go on) and its cost is in it. A model
    // is asked for it only after a limit the person set: never after an interruption, a spent budget, or turns that
    // kept failing (a model that just failed three times is not asked a fourth).
    handingOff = true;
    const limitReached = AT_A_LIMIT.has(summary.stopReason.code);
    const handoff = await endSession(run, !controller.signal.aborted && limitReached, handoffController.signal);
    if (handoff) summary.handoff = handoff;
    if (handoff) summary.usage = addUsage(summary.usage, handoff);
    output.clearStatus();
    await printSummary(run, summary);
    return controller.signal.aborted ? interruptCode : autoplayExitCode(summary);
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onTerminate);
  }
}

/** Why planner mode cannot start now, or undefined when it can. */
function plannerRefusal(run: PlayRun): string | undefined {
  const provider = run.captain.model;
  if (isBuiltinProvider(provider))
    return `planner mode needs a language model to plan: ${provider.id} plays on its own. Switch first, e.g. /model openai/gpt-4o-mini.`;
  const playable = canAutopilot(run.captain.tools);
  return playable.ok ? undefined : `planner mode: the autopilot cannot fly ${run.captain.label}: ${playable.reason}.`;
}

/** Chat: the REPL until /quit, Ctrl+D or two Ctrl+C; then the handoff. */
export async function runChatMode(run: PlayRun): Promise<number> {
  const { base, captain } = run;
  const { runner } = captain;
  let plannerOn = base.flags.planner === true;
  const exitCode = await runRepl({
    runner,
    output: base.output,
    chalk: base.chalk,
    input: process.stdin,
    terminal: process.stdin.isTTY === true && process.stdout.isTTY === true && !base.json,
    historyFile: join(base.config.home, 'history'),
    autoplay: (goal, signal, takeOrders) => autoplayWith(run, goal, signal, { takeOrders, planner: plannerOn }),
    planner: {
      enabled: () => plannerOn,
      set: (on) => {
        if (on) {
          const refused = plannerRefusal(run);
          if (refused) return refused;
        }
        plannerOn = on;
        return undefined;
      },
      plan: () => captain.planner?.plan,
      model: () => captain.model.id,
    },
    printSummary: (summary) => printSummary(run, summary),
    switchModel: (id) => captain.useModel(run.makeProvider(modelConfigFor(base.config, id))),
    describeModel: () => captain.model.id,
    memory: () => captain.memory?.show() ?? Promise.resolve('(captain memory is off)'),
    onSignal: (interrupt, terminate) => {
      const listener = (): void => interrupt();
      process.on('SIGINT', listener);
      const onTerm = (): void => terminate();
      process.on('SIGTERM', onTerm);
      return () => {
        process.off('SIGINT', listener);
        process.off('SIGTERM', onTerm);
      };
    },
  });
  base.output.clearStatus();
  await endSession(run, exitCode === ExitCode.ok);
  const place = storePlaceOf(base.flags);
  if (captain.record.stored())
    base.output.line(base.chalk.dim(chatEndLine({ sessionName: captain.session().name, place })));
  return exitCode;
}
