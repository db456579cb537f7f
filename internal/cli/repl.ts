// The chat REPL: a prompt with persistent history, slash commands, autoplay inside chat, and a Ctrl+C that aborts
// the running turn instead of exiting (rule 12). Exit is /quit, Ctrl+D, or Ctrl+C twice at an idle prompt.
// Three parts: the input (chat-input.ts), the turn control (chat-turns.ts), and here the commands and the wiring.
import type { ChalkInstance } from 'chalk';
import { ExitCode, ORDER_MAX_CHARS, textTooLong } from '../shared/index.js';
import type { AutoplaySummary, SessionRunner } from '../session/index.js';
import { asidesWhile, type Output } from './output.js';
import { runSlashCommand, type PlannerControls } from './slash-commands.js';
import { appendHistory } from './line-editor.js';
import { ChatInput } from './chat-input.js';
import { ChatTurns } from './chat-turns.js';

export interface ReplOptions {
  runner: SessionRunner;
  output: Output;
  chalk: ChalkInstance;
  input: NodeJS.ReadableStream;
  terminal: boolean;
  historyFile?: string;
  /** Starts autoplay; resolves with its summary when it stops. */
  autoplay: (goal: string, signal: AbortSignal, takeOrders: () => string[]) => Promise<AutoplaySummary>;
  printSummary: (summary: AutoplaySummary) => void | Promise<void>;
  memory?: () => Promise<string>;
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
  const { output, chalk } = options;
  const input = new ChatInput({ ...options, onMessage: (text) => onLine(text) });
  const turns = new ChatTurns({ ...options, input, now: options.now ?? Date.now });
  const commands = new CommandLane(options, turns, (line) => onLine(line));

  function onLine(line: string): void {
    if (turns.isClosed || commands.hold(line)) return;
    const text = line.trim();
    const command = text.startsWith('/') && !text.includes('\n');
    // Checked before the history file keeps it: a paste of megabytes is refused, not remembered.
    if (!command && refusedAsTooLong(text)) return;
    appendHistory(options.historyFile, line);
    if (text === '') turns.prompt();
    else if (command) commands.run(text);
    else turns.say(text);
  }

  /** A message over ORDER_MAX_CHARS is not sent: one line says so, and the prompt comes back. */
  function refusedAsTooLong(text: string): boolean {
    const problem = textTooLong(text, 'that message', ORDER_MAX_CHARS);
    if (!problem) return false;
    output.error(`${problem} (not sent)`);
    turns.prompt();
    return true;
  }

  input.rl.on('close', () => void turns.finishAfter(commands.running));
  input.rl.on('SIGINT', () => {
    if (input.continuing && !turns.busy()) {
      // Ctrl+C drops a half-written multi-line message first, as a shell does.
      input.dropContinued();
      output.line(chalk.dim('^C'));
      turns.prompt();
    } else turns.interrupt();
  });
  const removeSignal = options.onSignal?.(
    () => turns.interrupt(),
    () => turns.finish(ExitCode.terminated),
  );
  void turns.exited.finally(() => removeSignal?.());

  output.line(chalk.dim('Talk to your captain. /help for commands, /autoplay to let it play, Ctrl+D to leave.'));
  turns.prompt();
  return turns.exited;
}

/**
 * Slash commands, one at a time: a command that answers later (/status asks the game) holds the lines that come in
 * meanwhile (piped `/status` then `/quit`), and they are taken in order when it has answered.
 */
class CommandLane {
  running: Promise<void> | undefined;
  private readonly held: string[] = [];
  /** Slash commands typed during a turn answer below the stream, not inside it. */
  private readonly output: Output;

  constructor(
    private readonly options: ReplOptions,
    private readonly turns: ChatTurns,
    private readonly takeLine: (line: string) => void,
  ) {
    this.output = asidesWhile(options.output, () => turns.busy());
  }

  /** True when the line waits for the command still answering. */
  hold(line: string): boolean {
    if (!this.running) return false;
    this.held.push(line);
    return true;
  }

  run(line: string): void {
    const { turns, options } = this;
    const { chalk } = options;
    const next = runSlashCommand(line, {
      runner: options.runner,
      output: this.output,
      chalk,
      ...(options.memory ? { memory: options.memory } : {}),
      ...(options.planner ? { planner: options.planner } : {}),
      switchModel: options.switchModel,
      describeModel: options.describeModel,
      quit: () => {
        if (turns.turnRunning) options.output.line(chalk.dim('cancelling the running turn…'));
        turns.finish(ExitCode.ok);
      },
      startAutoplay: (goal) => turns.startAutoplay(goal),
      retry: () => turns.retry(),
      stop: () => turns.stop(),
    });
    if (next === 'prompt') turns.prompt();
    else if (next !== 'handled') this.answerLater(next);
  }

  private answerLater(answer: Promise<void>): void {
    const { output, chalk } = this.options;
    const running = answer
      .catch((error: unknown) => output.error(chalk.red(`error: ${(error as Error).message}`)))
      .then(() => {
        if (this.running === running) this.running = undefined;
        this.turns.prompt();
        // One at a time: a held line may be a command that answers later too.
        while (!this.running && this.held.length > 0) this.takeLine(this.held.shift() ?? '');
      });
    this.running = running;
  }
}
