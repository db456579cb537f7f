// The chat REPL's turn control: one chat turn at a time with the lines typed meanwhile queued behind it, autoplay
// inside chat with the orders typed for it, /retry, /stop, and a Ctrl+C that aborts what runs instead of exiting
// (rule 12). It decides when the prompt may show (never while something runs) and when the REPL has exited.
import type { ChalkInstance } from 'chalk';
import { ExitCode, FatalError, isBuiltinProvider } from '../shared/index.js';
import type { AutoplaySummary, SessionRunner } from '../session/index.js';
import type { Output } from './output.js';
import type { ChatInput } from './chat-input.js';
import { oneLine } from './text.js';

export interface ChatTurnsOptions {
  runner: SessionRunner;
  output: Output;
  chalk: ChalkInstance;
  input: ChatInput;
  /** Starts autoplay; resolves with its summary when it stops. */
  autoplay: (goal: string, signal: AbortSignal, takeOrders: () => string[]) => Promise<AutoplaySummary>;
  printSummary: (summary: AutoplaySummary) => void | Promise<void>;
  /** Clock for the double Ctrl+C at an idle prompt (tests). */
  now: () => number;
}

export class ChatTurns {
  /** Resolves with the exit code once the REPL is done and what ran has written its last messages. */
  readonly exited: Promise<number>;
  private resolveExit: (code: number) => void = () => {};
  private closed = false;
  private turnController: AbortController | undefined;
  /** Settles when the chat turn in flight (and the lines queued behind it) are done. */
  private chatDone: Promise<void> = Promise.resolve();
  private autoplayController: AbortController | undefined;
  private autoplayRun: Promise<void> | undefined;
  private readonly orders: string[] = [];
  private readonly pending: string[] = [];
  /** The last line said to the captain (what /retry sends again), and the model failures in a row. */
  private lastSent: string | undefined;
  private failures = 0;
  private lastIdleInterrupt = 0;

  constructor(private readonly options: ChatTurnsOptions) {
    this.exited = new Promise<number>((resolve) => {
      this.resolveExit = resolve;
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** A chat turn or autoplay is running. */
  busy(): boolean {
    return this.turnController !== undefined || this.autoplayRun !== undefined;
  }

  get turnRunning(): boolean {
    return this.turnController !== undefined;
  }

  /** The prompt, unless the REPL is closed or something runs (then the draft row stands in for it). */
  prompt(): void {
    if (this.closed || this.busy()) return;
    this.options.input.prompt();
  }

  /** A line for the captain: an order while autoplay runs, queued while a turn runs, else a turn of its own. */
  say(text: string): void {
    const { output, chalk } = this.options;
    if (this.autoplayRun) {
      this.orders.push(text);
      output.aside(chalk.dim(`  ⧗ order queued for the next autoplay turn: ${oneLine(text, 100)}`));
    } else if (this.turnController) {
      this.pending.push(text);
      output.aside(chalk.dim(`  ⧗ queued, sent when this turn ends: ${oneLine(text, 100)}`));
    } else this.startChat(text);
  }

  retry(): void {
    const { output, chalk } = this.options;
    if (this.lastSent === undefined)
      output.line(chalk.dim('nothing to retry yet: say something to your captain first'));
    else if (this.busy()) output.line(chalk.yellow('a turn is running: /retry when it ends'));
    else {
      output.line(chalk.dim(`retrying: ${oneLine(this.lastSent, 100)}`));
      this.startChat(this.lastSent);
      return;
    }
    this.prompt();
  }

  startAutoplay(goal: string): void {
    const { output, chalk } = this.options;
    if (this.autoplayRun) {
      output.line(chalk.yellow('autoplay is already running: /stop stops it'));
      return;
    }
    const controller = new AbortController();
    this.autoplayController = controller;
    this.options.input.mute();
    output.line(
      chalk.dim(
        `autoplay started${goal ? ` (goal: ${goal})` : ''}: type orders for the captain, /stop or Ctrl+C to stop`,
      ),
    );
    // Single flight: autoplay's first turn waits for the chat turn in flight.
    this.autoplayRun = this.chatDone
      .then(() => this.options.autoplay(goal, controller.signal, () => this.orders.splice(0)))
      .then((summary) => this.options.printSummary(summary))
      .catch((error: unknown) => {
        output.error(chalk.red(`autoplay stopped: ${(error as Error).message}`));
        if (error instanceof FatalError) this.finish(error.exitCode);
      })
      .finally(() => {
        this.autoplayRun = undefined;
        this.autoplayController = undefined;
        this.prompt();
      });
  }

  /** /stop: autoplay first, else the chat turn. */
  stop(): void {
    const { output, chalk } = this.options;
    if (this.autoplayController) {
      this.autoplayController.abort();
      output.line(chalk.dim('stopping autoplay…'));
    } else if (this.turnController) this.turnController.abort();
    else output.line(chalk.dim('nothing is running'));
  }

  /** Ctrl+C: stops autoplay, else cancels the turn (and drops the lines queued behind it), else exits if pressed twice. */
  interrupt(): void {
    const { output, chalk } = this.options;
    if (this.autoplayController) {
      this.autoplayController.abort();
      output.aside(chalk.yellow('^C autoplay stopped'));
    } else if (this.turnController) {
      this.turnController.abort();
      const dropped = this.pending.splice(0).length;
      const also = dropped > 0 ? ` (and ${dropped} queued line${dropped === 1 ? '' : 's'} dropped)` : '';
      output.aside(chalk.yellow(`^C turn cancelled${also}`));
    } else this.idleInterrupt();
  }

  /** Leaves now: what runs is aborted, and exits once it has written its last messages. */
  finish(code: number): void {
    if (this.closed) return;
    this.closed = true;
    this.turnController?.abort();
    this.autoplayController?.abort();
    this.options.input.close();
    // Let the aborted turn (and autoplay) write their last messages before the caller closes the store.
    void Promise.all([this.autoplayRun ?? Promise.resolve(), this.chatDone]).finally(() => this.resolveExit(code));
  }

  /** Ctrl+D or the end of piped input: the turn in flight and the lines queued behind it still run, then we leave. */
  async finishAfter(commandRunning: Promise<void> | undefined): Promise<void> {
    if (this.closed) return;
    await (commandRunning ?? Promise.resolve());
    await this.chatDone;
    await (this.autoplayRun ?? Promise.resolve());
    this.closed = true;
    this.resolveExit(ExitCode.ok);
  }

  private idleInterrupt(): void {
    const { output, chalk } = this.options;
    const time = this.options.now();
    if (time - this.lastIdleInterrupt < 2000) {
      output.line('');
      this.finish(ExitCode.interrupted);
      return;
    }
    this.lastIdleInterrupt = time;
    output.line(chalk.dim('\n(press Ctrl+C again to exit, or type /quit)'));
    this.prompt();
  }

  private startChat(text: string): void {
    this.chatDone = this.chatTurn(text);
  }

  private async chatTurn(text: string, queued = false): Promise<void> {
    if (queued) this.options.input.showQueuedAsSent(text);
    this.options.input.mute();
    this.sayWhenBuiltin();
    this.turnController = new AbortController();
    this.lastSent = text;
    try {
      const summary = await this.options.runner.run({ kind: 'user', text }, { signal: this.turnController.signal });
      if (summary.outcome === 'failed') this.failures = this.tellFailure(undefined);
      else if (summary.outcome !== 'cancelled') this.failures = 0;
    } catch (error) {
      // A model error in chat is the turn's, not the session's: it is said with what to do, and the prompt comes
      // back (a wrong key, a server that is not running, one that died mid-session).
      this.failures = this.tellFailure(error);
    } finally {
      this.turnController = undefined;
    }
    const next = this.pending.shift();
    if (next !== undefined && !this.closed) await this.chatTurn(next, true);
    else this.prompt();
  }

  /** A built-in model does not read chat: saying so beats a reply that ignores the line. */
  private sayWhenBuiltin(): void {
    const { runner, output, chalk } = this.options;
    if (!isBuiltinProvider(runner.provider)) return;
    output.line(
      chalk.dim(
        `${runner.provider.id} flies its own loop and does not read what you type: it plays a turn now. ` +
          'To talk to a captain, plug in a model: /model openai/gpt-4o-mini (key in OPENAI_API_KEY), or start with --model.',
      ),
    );
  }

  /**
   * Says why a chat turn failed and what to do next, and returns the failures in a row. The error's own words come
   * from the provider's classification (what happened, and how to fix it); the second failure in a row points at the
   * model that needs no model.
   */
  private tellFailure(error: unknown): number {
    const { output, chalk } = this.options;
    if (error !== undefined)
      output.error(chalk.red(`error: ${error instanceof Error ? error.message : String(error)}`));
    const failures = this.failures + 1;
    const hints = ['this turn failed (stored as failed): /retry sends your line again, /model NAME switches model'];
    if (failures >= 2) hints.push('`/model builtin/autopilot` plays without a model');
    for (const hint of hints) output.error(chalk.yellow(`  ${hint}`));
    return failures;
  }
}
