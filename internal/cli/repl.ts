// The chat REPL: a prompt with persistent history, slash commands, autoplay inside chat, and a Ctrl+C that aborts
// the running turn instead of exiting (rule 12). Exit is /quit, Ctrl+D, or Ctrl+C twice at an idle prompt.
import { createInterface, type Interface } from 'node:readline';
import type { ChalkInstance } from 'chalk';
import { ExitCode, FatalError, isBuiltinProvider } from '../shared/index.js';
import type { AutoplaySummary, SessionRunner } from '../session/index.js';
import { asidesWhile, type Output } from './output.js';
import { completeSlashCommand, runSlashCommand, type PlannerControls } from './slash-commands.js';
import { appendHistory, installHistorySearch, LineAssembler, loadHistory, MutableOutput } from './line-editor.js';
import { oneLine } from './text.js';

export interface ReplOptions {
  runner: SessionRunner;
  output: Output;
  chalk: ChalkInstance;
  input: NodeJS.ReadableStream;
  terminal: boolean;
  historyFile?: string;
  /** Starts autoplay; resolves with its summary when it stops. */
  autoplay: (goal: string, signal: AbortSignal, takeOrders: () => string[]) => Promise<AutoplaySummary>;
  printSummary: (summary: AutoplaySummary) => void;
  memory?: () => string;
  /** Planner mode for /autoplay: the model plans, the autopilot flies (see PlannerControls). */
  planner?: PlannerControls;
  switchModel: (id: string) => void;
  describeModel: () => string;
  /**
   * Process signals: `interrupt` for SIGINT (pipes get it as a signal, terminals as a key), `terminate` for SIGTERM
   * (cancel what runs and leave). Returns a function that unhooks them.
   */
  onSignal?: (interrupt: () => void, terminate: () => void) => () => void;
  /** Clock for the double Ctrl+C at an idle prompt (tests). */
  now?: () => number;
}

export function runRepl(options: ReplOptions): Promise<number> {
  const { runner, output, chalk } = options;
  const now = options.now ?? Date.now;
  const mainPrompt = chalk.bold.cyan('you › ');
  const morePrompt = chalk.dim('   … ');
  // On a terminal readline echoes keys through this output, muted while a turn runs: what is typed then is shown in
  // the status line's place (output.draft) and never spliced into a streamed reply.
  const echo = options.terminal ? new MutableOutput(process.stdout) : undefined;
  const rl: Interface = createInterface({
    input: options.input,
    ...(echo ? { output: echo } : {}),
    terminal: options.terminal,
    ...(options.terminal ? { completer: completeSlashCommand } : {}),
    history: loadHistory(options.historyFile),
    historySize: 500,
    removeHistoryDuplicates: true,
    prompt: mainPrompt,
  });
  // Lines become messages: `\` continues a line, a pasted burst is one message (terminals only).
  const lines = new LineAssembler(rl, {
    terminal: options.terminal,
    prompts: { main: mainPrompt, more: morePrompt },
    onMessage: (text) => onLine(text),
    showPrompt: () => (echo?.muted ? showDraft() : rl.prompt()),
  });

  let turnController: AbortController | undefined;
  /** Settles when the chat turn in flight (and the lines queued behind it) are done. */
  let chatDone: Promise<void> = Promise.resolve();
  let autoplayController: AbortController | undefined;
  let autoplayRun: Promise<void> | undefined;
  let lastIdleInterrupt = 0;
  const orders: string[] = [];
  const pending: string[] = [];
  /** A slash command still answering (/status asks the game), and the lines that came in meanwhile, in order. */
  let commandRunning: Promise<void> | undefined;
  const afterCommand: string[] = [];
  let closed = false;
  let resolveExit: (code: number) => void = () => {};
  const exited = new Promise<number>((resolve) => {
    resolveExit = resolve;
  });

  const busy = (): boolean => turnController !== undefined || autoplayRun !== undefined;
  const showDraft = (): void => {
    if (echo?.muted) output.draft?.(rl.line === '' && !lines.continuing ? '' : rl.getPrompt() + rl.line);
  };
  /** A turn starts: keys typed from now on are not echoed where the reply streams. */
  const mute = (): void => {
    if (echo && !echo.muted) echo.muted = true;
    showDraft();
  };
  const prompt = (): void => {
    if (closed || busy()) return;
    if (echo?.muted) {
      echo.muted = false;
      output.draft?.('');
      // Readline counted rows for what it could not draw while muted: it starts afresh on a new line.
      (rl as unknown as { prevRows?: number }).prevRows = 0;
    }
    rl.prompt(true);
  };
  /** Slash commands typed during a turn answer below the stream, not inside it. */
  const asideOutput = asidesWhile(output, busy);
  const aside = (text: string): void => output.aside(text);
  const finish = (code: number): void => {
    if (closed) return;
    closed = true;
    turnController?.abort();
    autoplayController?.abort();
    rl.close();
    // Let the aborted turn (and autoplay) write their last messages before the caller closes the store.
    void Promise.all([autoplayRun ?? Promise.resolve(), chatDone]).finally(() => resolveExit(code));
  };

  const remember = (line: string): void => appendHistory(options.historyFile, line);
  /** The last line said to the captain (what /retry sends again), and the model failures in a row. */
  let lastSent: string | undefined;
  let failures = 0;
  const retry = (): void => {
    if (lastSent === undefined) output.line(chalk.dim('nothing to retry yet: say something to your captain first'));
    else if (busy()) output.line(chalk.yellow('a turn is running: /retry when it ends'));
    else {
      output.line(chalk.dim(`retrying: ${oneLine(lastSent, 100)}`));
      startChat(lastSent);
      return;
    }
    prompt();
  };

  function startChat(text: string): void {
    chatDone = chatTurn(text);
  }

  async function chatTurn(text: string, queued = false): Promise<void> {
    // A line typed during the last turn was not echoed then: it is shown as sent, once, when its turn starts.
    if (queued && options.terminal) {
      output.line('');
      output.line(mainPrompt + text.replace(/\n/g, `\n${morePrompt}`));
    }
    mute();
    if (isBuiltinProvider(runner.provider)) {
      output.line(
        chalk.dim(
          `${runner.provider.id} flies its own loop and does not read what you type: it plays a turn now. ` +
            'To talk to a captain, plug in a model: /model openai/gpt-4o-mini (key in OPENAI_API_KEY), or start with --model.',
        ),
      );
    }
    turnController = new AbortController();
    lastSent = text;
    try {
      const summary = await runner.run({ kind: 'user', text }, { signal: turnController.signal });
      if (summary.outcome === 'failed') failures = tellFailure(output, chalk, failures, undefined);
      else if (summary.outcome !== 'cancelled') failures = 0;
    } catch (error) {
      // A model error in chat is the turn's, not the session's: it is said with what to do, and the prompt comes
      // back (a wrong key, a server that is not running, one that died mid-session).
      failures = tellFailure(output, chalk, failures, error);
    } finally {
      turnController = undefined;
    }
    const next = pending.shift();
    if (next !== undefined && !closed) await chatTurn(next, true);
    else prompt();
  }

  function startAutoplay(goal: string): void {
    if (autoplayRun) {
      output.line(chalk.yellow('autoplay is already running: /stop stops it'));
      return;
    }
    const controller = new AbortController();
    autoplayController = controller;
    mute();
    output.line(
      chalk.dim(
        `autoplay started${goal ? ` (goal: ${goal})` : ''}: type orders for the captain, /stop or Ctrl+C to stop`,
      ),
    );
    // Single flight: autoplay's first turn waits for the chat turn in flight.
    autoplayRun = chatDone
      .then(() => options.autoplay(goal, controller.signal, () => orders.splice(0)))
      .then((summary) => options.printSummary(summary))
      .catch((error: unknown) => {
        output.error(chalk.red(`autoplay stopped: ${(error as Error).message}`));
        if (error instanceof FatalError) finish(error.exitCode);
      })
      .finally(() => {
        autoplayRun = undefined;
        autoplayController = undefined;
        prompt();
      });
  }

  function command(line: string): void {
    const next = runSlashCommand(line, {
      runner,
      output: asideOutput,
      chalk,
      ...(options.memory ? { memory: options.memory } : {}),
      ...(options.planner ? { planner: options.planner } : {}),
      switchModel: options.switchModel,
      describeModel: options.describeModel,
      quit: () => {
        if (turnController) output.line(chalk.dim('cancelling the running turn…'));
        finish(ExitCode.ok);
      },
      startAutoplay,
      retry,
      stop: () => {
        if (autoplayController) {
          autoplayController.abort();
          output.line(chalk.dim('stopping autoplay…'));
        } else if (turnController) {
          turnController.abort();
        } else output.line(chalk.dim('nothing is running'));
      },
    });
    if (next === 'prompt') prompt();
    else if (next !== 'handled') {
      const running = next
        .catch((error: unknown) => output.error(chalk.red(`error: ${(error as Error).message}`)))
        .then(() => {
          if (commandRunning === running) commandRunning = undefined;
          prompt();
          // One at a time: a held line may be a command that answers later too.
          while (!commandRunning && afterCommand.length > 0) onLine(afterCommand.shift() ?? '');
        });
      commandRunning = running;
    }
  }

  function onLine(line: string): void {
    if (closed) return;
    if (commandRunning) {
      afterCommand.push(line);
      return;
    }
    const text = line.trim();
    remember(line);
    const multiLine = text.includes('\n');
    if (text === '') {
      prompt();
      return;
    }
    if (text.startsWith('/') && !multiLine) {
      command(text);
      return;
    }
    if (autoplayRun) {
      orders.push(text);
      aside(chalk.dim(`  ⧗ order queued for the next autoplay turn: ${oneLine(text, 100)}`));
      return;
    }
    if (turnController) {
      pending.push(text);
      aside(chalk.dim(`  ⧗ queued, sent when this turn ends: ${oneLine(text, 100)}`));
      return;
    }
    startChat(text);
  }

  function onInterrupt(): void {
    if (autoplayController) {
      autoplayController.abort();
      aside(chalk.yellow('^C autoplay stopped'));
      return;
    }
    if (turnController) {
      turnController.abort();
      const dropped = pending.splice(0).length;
      aside(
        chalk.yellow(
          `^C turn cancelled${dropped > 0 ? ` (and ${dropped} queued line${dropped === 1 ? '' : 's'} dropped)` : ''}`,
        ),
      );
      return;
    }
    const time = now();
    if (time - lastIdleInterrupt < 2000) {
      output.line('');
      finish(ExitCode.interrupted);
      return;
    }
    lastIdleInterrupt = time;
    output.line(chalk.dim('\n(press Ctrl+C again to exit, or type /quit)'));
    prompt();
  }

  rl.on('line', (typed: string) => lines.feed(typed));
  rl.on('close', () => {
    // Ctrl+D or the end of piped input: the turn in flight and the lines queued behind it still run, then we leave.
    if (closed) return;
    void (async () => {
      await (commandRunning ?? Promise.resolve());
      await chatDone;
      await (autoplayRun ?? Promise.resolve());
      closed = true;
      resolveExit(ExitCode.ok);
    })();
  });
  rl.on('SIGINT', () => {
    if (lines.continuing && !busy()) {
      // Ctrl+C drops a half-written multi-line message first, as a shell does.
      lines.drop();
      output.line(chalk.dim('^C'));
      prompt();
      return;
    }
    onInterrupt();
  });
  if (options.terminal) {
    installHistorySearch(rl, { prompt: () => (lines.continuing ? morePrompt : mainPrompt) });
    // Keys typed while a turn runs: readline keeps the line (rl.line) but is muted; the draft shows it.
    options.input.on('keypress', () => showDraft());
  }
  const removeSignal = options.onSignal?.(onInterrupt, () => finish(ExitCode.terminated));
  void exited.finally(() => removeSignal?.());

  output.line(chalk.dim('Talk to your captain. /help for commands, /autoplay to let it play, Ctrl+D to leave.'));
  prompt();
  return exited;
}

/**
 * Says why a chat turn failed and what to do next, and returns the failures in a row. The error's own words come
 * from the provider's classification (what happened, and how to fix it); the second failure in a row points at the
 * model that needs no model.
 */
function tellFailure(output: Output, chalk: ChalkInstance, before: number, error: unknown): number {
  if (error !== undefined) output.error(chalk.red(`error: ${error instanceof Error ? error.message : String(error)}`));
  const failures = before + 1;
  const hints = ['this turn failed (stored as failed): /retry sends your line again, /model NAME switches model'];
  if (failures >= 2) hints.push('`/model builtin/autopilot` plays without a model');
  for (const hint of hints) output.error(chalk.yellow(`  ${hint}`));
  return failures;
}
