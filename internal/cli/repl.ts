// The chat REPL: a prompt with persistent history, slash commands, autoplay inside chat, and a Ctrl+C that aborts
// the running turn instead of exiting (rule 12). Exit is /quit, Ctrl+D, or Ctrl+C twice at an idle prompt.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { createInterface, type Interface } from 'node:readline';
import type { ChalkInstance } from 'chalk';
import { ExitCode, FatalError } from '../shared/index.js';
import type { AutoplaySummary } from '../session/index.js';
import type { Output } from './output.js';
import type { SessionRunner } from '../session/index.js';
import { formatStatusLine } from './status.js';
import { formatTokens, formatUsd } from './text.js';

export const SLASH_COMMANDS: Record<string, string> = {
  '/help': 'this list',
  '/autoplay [goal]': 'play unattended until /stop or Ctrl+C (lines you type meanwhile become orders for the next turn)',
  '/stop': 'stop autoplay (the running turn is cancelled)',
  '/status': 'game state, session, model',
  '/cost': 'tokens and cost of this session',
  '/memory': 'what the captain will remember next turn',
  '/model ID': 'switch model, e.g. /model openai/gpt-4o-mini or /model builtin/autopilot',
  '/quit': 'leave (Ctrl+D works too)',
};

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
  switchModel: (id: string) => void;
  describeModel: () => string;
  /**
   * Process signals: `interrupt` for SIGINT (pipes get it as a signal, terminals as a key), `terminate` for SIGTERM
   * (cancel what runs and leave). Returns a function that unhooks them.
   */
  onSignal?: (interrupt: () => void, terminate: () => void) => () => void;
  /** Autoplay goal to start with (skipper --autoplay in chat mode is not used; /autoplay is). */
  now?: () => number;
}

function loadHistory(path: string | undefined): string[] {
  if (!path || !existsSync(path)) return [];
  try {
    return readFileSync(path, 'utf8').split('\n').filter(Boolean).slice(-500).reverse();
  } catch {
    return [];
  }
}

function closest(command: string): string | undefined {
  const names = Object.keys(SLASH_COMMANDS).map((key) => key.split(' ')[0] ?? key);
  let best: string | undefined;
  let bestScore = Infinity;
  for (const name of names) {
    const score = distance(command, name);
    if (score < bestScore) {
      best = name;
      bestScore = score;
    }
  }
  return bestScore <= 3 ? best : undefined;
}

function distance(a: string, b: string): number {
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

export function runRepl(options: ReplOptions): Promise<number> {
  const { runner, output, chalk } = options;
  const now = options.now ?? Date.now;
  const rl: Interface = createInterface({
    input: options.input,
    ...(options.terminal ? { output: process.stdout } : {}),
    terminal: options.terminal,
    history: loadHistory(options.historyFile),
    historySize: 500,
    removeHistoryDuplicates: true,
    prompt: chalk.bold.cyan('you › '),
  });

  let turnController: AbortController | undefined;
  /** Settles when the chat turn in flight (and the lines queued behind it) are done. */
  let chatDone: Promise<void> = Promise.resolve();
  let autoplayController: AbortController | undefined;
  let autoplayRun: Promise<void> | undefined;
  let lastIdleInterrupt = 0;
  const orders: string[] = [];
  const pending: string[] = [];
  let closed = false;
  let resolveExit: (code: number) => void = () => {};
  const exited = new Promise<number>((resolve) => {
    resolveExit = resolve;
  });

  const busy = (): boolean => turnController !== undefined || autoplayRun !== undefined;
  const prompt = (): void => {
    if (!closed && !busy()) rl.prompt();
  };
  const finish = (code: number): void => {
    if (closed) return;
    closed = true;
    turnController?.abort();
    autoplayController?.abort();
    rl.close();
    // Let the aborted turn (and autoplay) write their last messages before the caller closes the store.
    void Promise.all([autoplayRun ?? Promise.resolve(), chatDone]).finally(() => resolveExit(code));
  };

  const remember = (line: string): void => {
    if (!options.historyFile || line.trim() === '') return;
    try {
      appendFileSync(options.historyFile, `${line.replace(/\n/g, ' ')}\n`, { mode: 0o600 });
    } catch {
      // history is a convenience; a read-only home must not break chat
    }
  };

  function startChat(text: string): void {
    chatDone = chatTurn(text);
  }

  async function chatTurn(text: string): Promise<void> {
    turnController = new AbortController();
    try {
      await runner.run({ kind: 'user', text }, { signal: turnController.signal });
    } catch (error) {
      if (error instanceof FatalError) {
        output.error(chalk.red(`error: ${error.message}`));
        finish(error.exitCode);
        return;
      }
      output.error(chalk.red(`error: ${(error as Error).message}`));
    } finally {
      turnController = undefined;
    }
    const next = pending.shift();
    if (next !== undefined && !closed) await chatTurn(next);
    else prompt();
  }

  function startAutoplay(goal: string): void {
    if (autoplayRun) {
      output.line(chalk.yellow('autoplay is already running: /stop stops it'));
      return;
    }
    const controller = new AbortController();
    autoplayController = controller;
    output.line(chalk.dim(`autoplay started${goal ? ` (goal: ${goal})` : ''}: type orders for the captain, /stop or Ctrl+C to stop`));
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
    const [name = '', ...rest] = line.trim().split(/\s+/);
    const argument = rest.join(' ');
    switch (name) {
      case '/help':
        output.line(chalk.bold('Commands:'));
        for (const [usage, text] of Object.entries(SLASH_COMMANDS)) output.line(`  ${usage.padEnd(18)} ${chalk.dim(text)}`);
        output.line(chalk.dim('Anything else is said to your captain. Ctrl+C cancels a running turn; twice at the prompt exits.'));
        break;
      case '/quit':
      case '/exit':
        if (turnController) output.line(chalk.dim('cancelling the running turn…'));
        finish(ExitCode.ok);
        return;
      case '/autoplay':
        startAutoplay(argument);
        return;
      case '/stop':
        if (autoplayController) {
          autoplayController.abort();
          output.line(chalk.dim('stopping autoplay…'));
        } else if (turnController) {
          turnController.abort();
        } else output.line(chalk.dim('nothing is running'));
        return;
      case '/status': {
        const state = runner.state;
        output.line(state ? formatStatusLine({ state, usage: runner.usage, chalk }) : chalk.dim('no game state yet: ask your captain to look around'));
        output.line(chalk.dim(`session ${runner.sessionName} · ${runner.turns} turns · model ${options.describeModel()}`));
        break;
      }
      case '/cost': {
        const usage = runner.usage;
        output.line(
          `tokens: ${formatTokens(usage.promptTokens)} in (${formatTokens(usage.cachedTokens)} cached) · ${formatTokens(usage.completionTokens)} out · cost ${formatUsd(usage.costUsd)}`,
        );
        break;
      }
      case '/memory':
        output.line(options.memory ? options.memory() || chalk.dim('(nothing remembered yet)') : chalk.dim('memory is not available'));
        break;
      case '/model':
        if (!argument) {
          output.line(`model: ${options.describeModel()} · switch with /model PROVIDER/MODEL`);
          break;
        }
        try {
          options.switchModel(argument);
          output.line(chalk.dim(`model switched to ${options.describeModel()}`));
        } catch (error) {
          output.error(chalk.red((error as Error).message));
        }
        break;
      default: {
        const hint = closest(name);
        output.line(chalk.yellow(`unknown command ${name}${hint ? ` — did you mean ${hint}?` : ''} (/help lists them)`));
      }
    }
    prompt();
  }

  function onLine(line: string): void {
    if (closed) return;
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
      output.line(chalk.dim('  (order queued for the next autoplay turn)'));
      return;
    }
    if (turnController) {
      pending.push(text);
      output.line(chalk.dim('  (queued: sent when this turn ends)'));
      return;
    }
    startChat(text);
  }

  function onInterrupt(): void {
    if (autoplayController) {
      autoplayController.abort();
      output.line(chalk.yellow('^C autoplay stopped'));
      return;
    }
    if (turnController) {
      turnController.abort();
      const dropped = pending.splice(0).length;
      output.line(chalk.yellow(`^C turn cancelled${dropped > 0 ? ` (and ${dropped} queued line${dropped === 1 ? '' : 's'} dropped)` : ''}`));
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

  // A paste of several lines arrives as a burst of 'line' events within a few milliseconds: on a terminal they are
  // joined into one message instead of becoming one turn per line. Piped input (scripts) is taken line by line.
  let burst: string[] = [];
  let burstTimer: NodeJS.Timeout | undefined;
  const flushBurst = (): void => {
    burstTimer = undefined;
    const lines = burst;
    burst = [];
    if (lines.length === 1) onLine(lines[0] ?? '');
    else if (lines.length > 1) onLine(lines.join('\n'));
  };
  rl.on('line', (line: string) => {
    if (!options.terminal) {
      onLine(line);
      return;
    }
    burst.push(line);
    if (burstTimer) clearTimeout(burstTimer);
    burstTimer = setTimeout(flushBurst, 15);
  });
  rl.on('close', () => {
    // Ctrl+D or the end of piped input: the turn in flight and the lines queued behind it still run, then we leave.
    if (closed) return;
    void (async () => {
      await chatDone;
      await (autoplayRun ?? Promise.resolve());
      closed = true;
      resolveExit(ExitCode.ok);
    })();
  });
  rl.on('SIGINT', onInterrupt);
  const removeSignal = options.onSignal?.(onInterrupt, () => finish(ExitCode.terminated));
  void exited.finally(() => removeSignal?.());

  output.line(chalk.dim('Talk to your captain. /help for commands, /autoplay to let it play, Ctrl+D to leave.'));
  prompt();
  return exited;
}
