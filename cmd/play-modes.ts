// Step 5 of a play session: run it — unattended autoplay (Ctrl+C / SIGTERM stop it with a summary) or the chat
// REPL — then end it with a handoff for the captain's memory.
import { join } from 'node:path';
import { tidyTerminal } from '../internal/cli/output.js';
import { chatEndLine } from '../internal/cli/invocation.js';
import { runRepl } from '../internal/cli/repl.js';
import { summaryJson, summaryLines, withStoredFigures } from '../internal/cli/summary.js';
import {
  actionClassifier,
  runAutoplay,
  storedFigures,
  withServerTicks,
  HANDOFF_REQUEST,
  idleWaitMs,
  type AutoplaySummary,
  type Planner,
} from '../internal/session/index.js';
import {
  ExitCode,
  addUsage,
  isBuiltinProvider,
  type Provider,
  type Usage,
  storePlaceOf,
} from '../internal/shared/index.js';
import { canAutopilot, type ModelConfig } from '../internal/provider/index.js';
import { modelConfigFor, type OpenGame, type PlayBase } from './play-setup.js';
import type { OpenSession } from './play-session.js';

export interface PlayRun {
  base: PlayBase;
  opened: OpenGame;
  open: OpenSession;
  makeProvider: (model: ModelConfig) => Provider;
  /** The built-in autopilot, to fly a model's plan (planner mode). */
  makeFlier: () => Provider;
}

/**
 * A handoff when the session ends (episodes and lessons are written per turn by setUpSession): a model is asked for
 * a note in a step of Skipper's own — no game tools, so nothing can happen in the game past a limit — that `signal`
 * (a Ctrl+C) skips. Returns what that step spent.
 */
async function endSession(run: PlayRun, askModel: boolean, signal?: AbortSignal): Promise<Usage | undefined> {
  const { runner, memory, turnsSoFar, record } = run.open;
  // No turn, no session stored: nothing happened worth a handoff either. A resumed session left without a turn
  // keeps the handoff it had (a new one would say "0 turns" and push the useful one down).
  if (!record.stored() || runner.turns <= turnsSoFar) return undefined;
  let text: string | undefined;
  let spent: Usage | undefined;
  // A model writes its own handoff (one more short turn); the built-in policies and interrupted sessions get a
  // factual one written by code.
  if (askModel && !isBuiltinProvider(runner.provider) && runner.turns > turnsSoFar) {
    try {
      const timeout = AbortSignal.timeout(120_000);
      const handoff = await runner.run(
        { kind: 'handoff', text: HANDOFF_REQUEST },
        { signal: signal ? AbortSignal.any([signal, timeout]) : timeout, noTools: true },
      );
      spent = handoff.usage;
      if (handoff.outcome === 'answered') text = handoff.answer;
    } catch (error) {
      run.base.logger.warn({ error: (error as Error).message }, 'handoff turn failed; writing a factual one');
    }
  }
  const written = await memory.endSession({
    ...(text ? { text } : {}),
    ...(runner.state ? { state: runner.state } : {}),
    mirror: run.base.config.captainsLog,
    game: run.opened.conn,
  });
  if (written) run.base.logger.info({ chars: written.length }, 'handoff stored');
  return spent;
}

async function autoplayWith(
  run: PlayRun,
  goal: string,
  runSignal: AbortSignal,
  options: { takeOrders?: () => string[]; planner?: boolean } = {},
): Promise<AutoplaySummary> {
  // A session taken over by another Skipper (this one stalled past its lease's deadline) stops here at once.
  const signal = AbortSignal.any([runSignal, ...run.base.leases.map((lease) => lease.lost)]);
  const { flags } = run.base;
  const { conn, game, tools } = run.opened;
  const { takeOrders } = options;
  // The goal is the session's (export, sessions and the system prompt show it), whether given with --autoplay or
  // /autoplay in chat; autoplay without one keeps the goal the session had.
  const trimmed = goal.trim();
  if (trimmed !== '' && run.open.record.session().goal !== trimmed) await run.open.record.update({ goal: trimmed });
  let planner: Planner | undefined;
  if (options.planner) {
    planner = await run.open.startPlanner(run.makeFlier());
    // The model in use plans (chat may have switched it since planner mode began).
    if (!isBuiltinProvider(run.open.runner.provider)) planner.useModel(run.open.runner.provider);
  }
  return runAutoplay({
    runner: run.open.runner,
    goal,
    limits: {
      ...(flags.maxTicks !== undefined ? { maxTicks: flags.maxTicks } : {}),
      ...(flags.maxTurns !== undefined ? { maxTurns: flags.maxTurns } : {}),
      ...(flags.duration !== undefined ? { durationMs: flags.duration } : {}),
      ...(flags.budgetUsd !== undefined ? { budgetUsd: flags.budgetUsd } : {}),
      ...(flags.budgetTokens !== undefined ? { budgetTokens: flags.budgetTokens } : {}),
    },
    signal,
    ...(takeOrders ? { takeOrders } : {}),
    fetchEvents: (eventSignal) => conn.fetchEvents({ signal: eventSignal }),
    ...(game.tickStats ? { tickStats: () => game.tickStats?.(conn.username()) ?? Promise.resolve(undefined) } : {}),
    idleWaitMs: idleWaitMs(game.clock.tickMs),
    isAction: actionClassifier(tools),
    clock: game.clock,
    store: run.base.store,
    ...(planner ? { planner } : {}),
  });
}

async function printSummary(run: PlayRun, ended: AutoplaySummary): Promise<void> {
  const { writeJson, output, chalk, flags } = run.base;
  const summary = await storedSummary(run, ended);
  // The commands it suggests look where this run looked: its --home and --db, when it was given them.
  const place = storePlaceOf(flags);
  if (writeJson) writeJson({ type: 'autoplay-end', ...summaryJson(summary, place) });
  else for (const line of summaryLines(summary, { chalk, place })) output.line(line);
}

/**
 * The summary with the figures of the stored run: the game's busy ticks are stored with the session first, so the
 * summary, `sessions`, `report` and export all read one set of figures (storedFigures). A run that stored nothing
 * (no turn) keeps its own counts.
 */
async function storedSummary(run: PlayRun, summary: AutoplaySummary): Promise<AutoplaySummary> {
  const { record } = run.open;
  if (!record.stored()) return summary;
  try {
    if (summary.serverTicks) {
      const extra = withServerTicks(record.session().extra, { fromTurn: summary.startTurn, ...summary.serverTicks });
      await record.update({ extra });
    }
    return withStoredFigures(
      summary,
      await storedFigures(run.base.store, record.session().id, { fromTurn: summary.startTurn }),
    );
  } catch (error) {
    run.base.logger.warn({ error: (error as Error).message }, 'stored figures unreadable; the summary shows the run');
    return summary;
  }
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
    // The handoff comes before the summary (which is printed last, with how to go on) and its cost is in it; never
    // after an interruption or a spent budget.
    handingOff = true;
    const handoff = await endSession(
      run,
      !controller.signal.aborted && summary.stopReason.kind !== 'budget',
      handoffController.signal,
    );
    if (handoff) summary.handoff = handoff;
    if (handoff) summary.usage = addUsage(summary.usage, handoff);
    output.clearStatus();
    await printSummary(run, summary);
    return controller.signal.aborted ? interruptCode : ExitCode.ok;
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onTerminate);
  }
}

/** Why planner mode cannot start now, or undefined when it can. */
function plannerRefusal(run: PlayRun): string | undefined {
  const provider = run.open.runner.provider;
  if (isBuiltinProvider(provider))
    return `planner mode needs a language model to plan: ${provider.id} plays on its own. Switch first, e.g. /model openai/gpt-4o-mini.`;
  const playable = canAutopilot(run.opened.tools);
  return playable.ok
    ? undefined
    : `planner mode: the autopilot cannot fly ${run.opened.gameLabel}: ${playable.reason}.`;
}

/** Chat: the REPL until /quit, Ctrl+D or two Ctrl+C; then the handoff. */
export async function runChatMode(run: PlayRun): Promise<number> {
  const { base, open } = run;
  const { runner } = open;
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
      plan: () => open.planner?.plan,
      // While planner autoplay runs, the runner's provider is the flier; the planner holds the model.
      model: () => (open.planner && isBuiltinProvider(runner.provider) ? open.planner.model.id : runner.provider.id),
    },
    printSummary: (summary) => printSummary(run, summary),
    switchModel: (id) => {
      runner.provider = run.makeProvider(modelConfigFor(base.config, id));
      open.record.update({ model: runner.provider.id }).catch((error: unknown) => {
        base.logger.warn(
          { error: error instanceof Error ? error.message : String(error) },
          'could not store the model',
        );
      });
    },
    describeModel: () => runner.provider.id,
    memory: () => open.memory.show(),
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
  if (open.record.stored()) base.output.line(base.chalk.dim(chatEndLine({ sessionName: runner.sessionName, place })));
  return exitCode;
}
