// The chat REPL's input side: readline over the terminal (or a pipe), the messages it assembles from lines, and the
// echo that is muted while a turn runs, so that what is typed then shows in the draft row and never inside a streamed
// reply. When to show the prompt is the turn control's decision (repl.ts), not this module's.
import { createInterface, type Interface } from 'node:readline';
import type { ChalkInstance } from 'chalk';
import type { Output } from './output.js';
import { completeSlashCommand } from './slash-commands.js';
import { HistorySearch, LineAssembler, loadHistory, MutableOutput } from './line-editor.js';

export interface ChatInputOptions {
  input: NodeJS.ReadableStream;
  terminal: boolean;
  historyFile?: string;
  output: Output;
  chalk: ChalkInstance;
  /** A whole message: one line, lines joined by a trailing `\`, or a paste. */
  onMessage: (text: string) => void;
}

export class ChatInput {
  readonly rl: Interface;
  private readonly prompts: { main: string; more: string };
  /** On a terminal readline echoes keys through this output, muted while a turn runs. */
  private readonly echo: MutableOutput | undefined;
  private readonly lines: LineAssembler;
  private readonly output: Output;
  private readonly terminal: boolean;

  constructor(options: ChatInputOptions) {
    this.output = options.output;
    this.terminal = options.terminal;
    this.prompts = { main: options.chalk.bold.cyan('you › '), more: options.chalk.dim('   … ') };
    this.echo = options.terminal ? new MutableOutput(process.stdout) : undefined;
    const history = loadHistory(options.historyFile);
    // Ctrl+R stands between the terminal and readline (it takes the keys of a search, readline gets the rest).
    const search = options.terminal
      ? new HistorySearch(options.input, {
          history,
          prompt: () => (this.lines.continuing ? this.prompts.more : this.prompts.main),
          onPaste: (text) => this.lines.paste(text),
        })
      : undefined;
    this.rl = createInterface({
      input: search?.keys ?? options.input,
      ...(this.echo ? { output: this.echo } : {}),
      terminal: options.terminal,
      ...(options.terminal ? { completer: completeSlashCommand } : {}),
      history,
      historySize: 500,
      removeHistoryDuplicates: true,
      prompt: this.prompts.main,
    });
    search?.attach(this.rl);
    // Lines become messages: `\` continues a line, a pasted burst is one message (terminals only).
    this.lines = new LineAssembler(this.rl, {
      terminal: options.terminal,
      prompts: this.prompts,
      onMessage: options.onMessage,
      showPrompt: () => (this.echo?.muted ? this.showDraft() : this.rl.prompt()),
    });
    this.rl.on('line', (typed: string) => this.lines.feed(typed));
    // Keys typed while a turn runs: readline keeps the line (rl.line) but is muted; the draft shows it.
    if (options.terminal) options.input.on('keypress', () => this.showDraft());
    if (options.terminal) this.bracketPastes();
  }

  /**
   * Asks the terminal to mark pastes (ESC[?2004h), so a pasted newline is not Enter (HistorySearch hands the paste
   * over whole); asked to stop however chat ends, or the shell after it would get the marks around its pastes.
   */
  private bracketPastes(): void {
    const stop = (): void => {
      process.off('exit', stop);
      process.stdout.write('\u001b[?2004l');
    };
    process.stdout.write('\u001b[?2004h');
    process.on('exit', stop);
    this.rl.on('close', stop);
  }

  /** True while a line ending in `\` waits for the rest. */
  get continuing(): boolean {
    return this.lines.continuing;
  }

  /** A turn starts: keys typed from now on are not echoed where the reply streams. */
  mute(): void {
    if (this.echo && !this.echo.muted) this.echo.muted = true;
    this.showDraft();
  }

  /** The prompt, unmuted again if a turn had muted it. */
  prompt(): void {
    if (this.echo?.muted) {
      this.echo.muted = false;
      this.output.draft?.('');
    }
    this.rl.prompt(true);
  }

  /** Drops a half-written multi-line message (Ctrl+C at the `…` prompt), back to the main prompt. */
  dropContinued(): void {
    this.lines.drop();
  }

  /** A line typed during the last turn was not echoed then: it is shown as sent, once, when its turn starts. */
  showQueuedAsSent(text: string): void {
    if (!this.terminal) return;
    this.output.line('');
    this.output.line(this.prompts.main + text.replace(/\n/g, `\n${this.prompts.more}`));
  }

  close(): void {
    this.rl.close();
  }

  /** While muted, what is being typed shows in the draft rows: every line of a multi-line message, not the last only. */
  private showDraft(): void {
    if (!this.echo?.muted) return;
    const earlier = this.lines.earlierLines;
    if (this.rl.line === '' && earlier.length === 0) {
      this.output.draft?.('');
      return;
    }
    const rows = earlier.map((line, index) => (index === 0 ? this.prompts.main : this.prompts.more) + line);
    rows.push(this.rl.getPrompt() + this.rl.line);
    this.output.draft?.(rows.join('\n'));
  }
}
