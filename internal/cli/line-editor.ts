// The chat prompt's line editing on a terminal, on top of node:readline: an output readline can be muted through
// (keys typed while a turn streams must not be echoed into the reply), Ctrl+R reverse history search, and the
// continuation of a line that ends with `\`.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { Interface } from 'node:readline';
import { Writable } from 'node:stream';

interface TerminalStream {
  write(text: string | Uint8Array): boolean;
  columns?: number;
  rows?: number;
  isTTY?: boolean;
  on?(event: 'resize', listener: () => void): unknown;
}

/** Readline's output: the terminal, or nothing while muted. Keeps the terminal's size so readline wraps right. */
export class MutableOutput extends Writable {
  muted = false;
  readonly isTTY: boolean;
  private readonly target: TerminalStream;

  constructor(target: TerminalStream) {
    super({ decodeStrings: false });
    this.target = target;
    this.isTTY = target.isTTY === true;
    target.on?.('resize', () => this.emit('resize'));
  }

  get columns(): number | undefined {
    return this.target.columns;
  }

  get rows(): number | undefined {
    return this.target.rows;
  }

  override _write(chunk: string | Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (!this.muted) this.target.write(chunk);
    callback();
  }
}

interface Key {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
  sequence?: string;
}

type TtyWrite = (this: Interface, text: string | undefined, key: Key | undefined) => void;

/** Readline's key handler: a symbol-keyed method in Node 20+, `_ttyWrite` before. Undefined if neither is found. */
function ttyWriteKey(rl: Interface): symbol | string | undefined {
  let proto: object | null = Object.getPrototypeOf(rl) as object | null;
  while (proto) {
    const symbol = Object.getOwnPropertySymbols(proto).find((candidate) => candidate.description === '_ttyWrite');
    if (symbol) return symbol;
    proto = Object.getPrototypeOf(proto) as object | null;
  }
  return typeof (rl as unknown as Record<string, unknown>)._ttyWrite === 'function' ? '_ttyWrite' : undefined;
}

interface Editable {
  line: string;
  cursor: number;
  history: string[];
  prevRows?: number;
}

/**
 * Ctrl+R searches the history backwards as bash does: type to narrow, Ctrl+R again for an older match, Enter runs
 * the match, Esc or Ctrl+G gives the line back as it was, any other key takes the match and goes on editing.
 * Returns false when readline's key handler could not be found (then Ctrl+R stays readline's own).
 */
export function installHistorySearch(rl: Interface, options: { prompt: () => string }): boolean {
  const key = ttyWriteKey(rl);
  if (!key) return false;
  const target = rl as unknown as Record<string | symbol, unknown> & Editable;
  const original = target[key] as TtyWrite | undefined;
  if (typeof original !== 'function') return false;
  // The prompt and the line, cursor kept (while a turn runs readline is muted and the draft shows them instead).
  const redraw = (): void => rl.prompt(true);

  let searching = false;
  let query = '';
  let index = -1;
  let saved = { line: '', cursor: 0 };

  const find = (from: number): number => {
    if (query === '') return -1;
    for (let i = from; i < target.history.length; i++) if (target.history[i]?.includes(query)) return i;
    return -1;
  };
  const show = (): void => {
    const match = index >= 0 ? (target.history[index] ?? '') : '';
    rl.setPrompt(`(history search)'${query}': `);
    target.line = match;
    target.cursor = match.length;
    redraw();
  };
  const leave = (restore: boolean): void => {
    searching = false;
    rl.setPrompt(options.prompt());
    if (restore) {
      target.line = saved.line;
      target.cursor = saved.cursor;
    }
    redraw();
  };

  const handle = function handle(this: Interface, text: string | undefined, pressed: Key | undefined): void {
    if (!searching) {
      if (pressed?.ctrl && pressed.name === 'r') {
        searching = true;
        query = '';
        index = -1;
        saved = { line: target.line, cursor: target.cursor };
        show();
        return;
      }
      original.call(this, text, pressed);
      return;
    }
    if (pressed?.ctrl && pressed.name === 'r') {
      const next = find(index + 1);
      if (next >= 0) index = next;
      show();
      return;
    }
    if ((pressed?.ctrl && pressed.name === 'g') || pressed?.name === 'escape') {
      leave(true);
      return;
    }
    if (pressed?.name === 'backspace') {
      query = query.slice(0, -1);
      index = find(0);
      show();
      return;
    }
    if (pressed?.ctrl && pressed.name === 'c') {
      leave(true);
      original.call(this, text, pressed);
      return;
    }
    const printable =
      // eslint-disable-next-line no-control-regex -- control characters are exactly what a typed key must not be
      text !== undefined && text.length > 0 && !pressed?.ctrl && !pressed?.meta && !/[\x00-\x1f\x7f]/.test(text);
    if (printable) {
      query += text;
      const next = find(Math.max(0, index));
      index = next;
      show();
      return;
    }
    // Enter runs the match; arrows and other keys take it and go on editing.
    leave(false);
    original.call(this, text, pressed);
  };
  try {
    // An own property shadows the prototype's (which may be a getter only).
    Object.defineProperty(rl, key, { value: handle, configurable: true, writable: true });
  } catch {
    return false;
  }
  return true;
}

/** A line ending with an odd number of `\` continues on the next line (the backslash is dropped). */
export function continuesOnNextLine(line: string): boolean {
  const trailing = /\\+$/.exec(line)?.[0].length ?? 0;
  return trailing % 2 === 1;
}

/**
 * Turns readline's lines into messages. On a terminal a line ending with `\` goes on at the `more` prompt (the lines
 * are one message), and a paste of several lines, which arrives as a burst of lines within a few milliseconds, is
 * one message too. Piped input (scripts) is taken line by line.
 */
export class LineAssembler {
  private continued: string[] = [];
  private burst: string[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly rl: Interface,
    private readonly options: {
      terminal: boolean;
      prompts: { main: string; more: string };
      onMessage: (text: string) => void;
      /** Shows the `more` prompt (readline's own, or the draft while a turn runs). */
      showPrompt: () => void;
    },
  ) {}

  /** True while a line ending in `\` waits for the rest. */
  get continuing(): boolean {
    return this.continued.length > 0;
  }

  feed(typed: string): void {
    if (!this.options.terminal) {
      this.options.onMessage(typed);
      return;
    }
    if (continuesOnNextLine(typed)) {
      this.continued.push(typed.slice(0, -1));
      this.rl.setPrompt(this.options.prompts.more);
      this.options.showPrompt();
      return;
    }
    let line = typed;
    if (this.continued.length > 0) {
      line = [...this.continued, typed].join('\n');
      this.drop();
    }
    this.burst.push(line);
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), 15);
  }

  /** Drops a half-written multi-line message (Ctrl+C), back to the main prompt. */
  drop(): void {
    this.continued = [];
    this.rl.setPrompt(this.options.prompts.main);
  }

  private flush(): void {
    this.timer = undefined;
    const lines = this.burst;
    this.burst = [];
    if (lines.length === 1) this.options.onMessage(lines[0] ?? '');
    else if (lines.length > 1) this.options.onMessage(lines.join('\n'));
  }
}

/** The chat history file: the last 500 lines, newest first (readline's order); unreadable means none. */
export function loadHistory(path: string | undefined): string[] {
  if (!path || !existsSync(path)) return [];
  try {
    return readFileSync(path, 'utf8').split('\n').filter(Boolean).slice(-500).reverse();
  } catch {
    return [];
  }
}

/** Appends a sent line to the history file (one line; private to the user). */
export function appendHistory(path: string | undefined, line: string): void {
  if (!path || line.trim() === '') return;
  try {
    appendFileSync(path, `${line.replace(/\n/g, ' ')}\n`, { mode: 0o600 });
  } catch {
    // history is a convenience; a read-only home must not break chat
  }
}
