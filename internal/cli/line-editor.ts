// The chat prompt's line editing on a terminal, on top of node:readline's public surface: an output readline can be
// muted through (keys typed while a turn streams must not be echoed into the reply), Ctrl+R reverse history search
// over the keypress events before readline sees them, and the continuation of a line that ends with `\`.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { emitKeypressEvents, type Interface } from 'node:readline';
import { Readable, Writable } from 'node:stream';

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

  /**
   * None while muted: readline then counts what it draws as one row (as for an output without a width), so the rows
   * it never drew are not climbed back over when the prompt shows again.
   */
  get columns(): number | undefined {
    return this.muted ? undefined : this.target.columns;
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

/** The terminal's input as readline needs it: a stream, maybe with a raw mode. */
type KeySource = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };

/**
 * What readline reads on a terminal: the keys of the real input that the history search lets through, as the same
 * keypress events readline would have decoded itself (it listens for them on its input). Raw mode, pause and resume
 * go to the real input.
 */
class FilteredKeys extends Readable {
  readonly isTTY: boolean;

  constructor(private readonly source: KeySource) {
    super();
    this.isTTY = source.isTTY === true;
    source.on('end', () => this.push(null));
  }

  get isRaw(): boolean {
    return (this.source as { isRaw?: boolean }).isRaw === true;
  }

  setRawMode(mode: boolean): this {
    this.source.setRawMode?.(mode);
    return this;
  }

  override pause(): this {
    this.source.pause();
    return super.pause();
  }

  override resume(): this {
    this.source.resume();
    return super.resume();
  }

  override _read(): void {
    // Keys are emitted as keypress events, never pushed as data.
  }

  pass(text: string | undefined, key: Key | undefined): void {
    this.emit('keypress', text, key);
  }
}

/** What a key does during a search; the table below decides. */
type SearchStep = 'older' | 'cancel' | 'cancel-then-key' | 'widen' | 'interrupt' | 'narrow' | 'take';

function searchStep(text: string | undefined, key: Key | undefined): SearchStep {
  if (key?.ctrl && key.name === 'r') return 'older';
  if ((key?.ctrl && key.name === 'g') || key?.name === 'escape') return 'cancel';
  // Esc and a key within the decoder's half second arrive as one Meta+key: that is Esc, then the key.
  if (escapedKey(key) !== undefined) return 'cancel-then-key';
  if (key?.name === 'backspace') return 'widen';
  if (key?.ctrl && key.name === 'c') return 'interrupt';
  // Enter runs the match; arrows and other keys take it and go on editing.
  return isTyped(text, key) ? 'narrow' : 'take';
}

/**
 * The key behind an Esc that node's keypress decoder glued to it (Esc then `x` within 0.5 s is Meta+x, sequence
 * ESC x): the key as typed alone, or undefined when `key` is no such pair.
 */
function escapedKey(key: Key | undefined): { text: string; key: Key } | undefined {
  const sequence = key?.sequence;
  if (!key?.meta || sequence?.length !== 2 || !sequence.startsWith('\u001b')) return undefined;
  const typed = sequence.slice(1);
  if (typed === '\u001b') return undefined;
  return { text: typed, key: { sequence: typed, meta: false, shift: /^[A-Z]$/.test(typed), ...keyName(typed) } };
}

const NAMED_KEYS: Record<string, string> = {
  '\r': 'return',
  '\n': 'enter',
  '\t': 'tab',
  '\u007f': 'backspace',
  ' ': 'space',
};

/** The name (and Ctrl) node's decoder gives a key typed alone: letters by name, Ctrl+letter as such. */
function keyName(typed: string): { name?: string; ctrl: boolean } {
  const named = NAMED_KEYS[typed];
  if (named) return { name: named, ctrl: false };
  if (/^[a-z]$/i.test(typed)) return { name: typed.toLowerCase(), ctrl: false };
  const code = typed.charCodeAt(0);
  if (code >= 1 && code <= 26) return { name: String.fromCharCode(code + 96), ctrl: true };
  return { ctrl: false };
}

/** A character typed into the query: no control key, no control character. */
function isTyped(text: string | undefined, key: Key | undefined): text is string {
  if (text === undefined || text.length === 0 || key?.ctrl || key?.meta) return false;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a typed key must not be
  return !/[\x00-\x1f\x7f]/.test(text);
}

/**
 * Ctrl+R searches the history backwards as bash does: type to narrow, Ctrl+R again for an older match, Enter runs
 * the match, Esc or Ctrl+G gives the line back as it was (Esc at once, and a key typed right after it is typed as
 * usual), any other key takes the match and goes on editing.
 * It stands between the terminal and readline, with readline's public surface only: give `keys` to readline as its
 * input, then `attach` the interface; keys pass through untouched except while a search runs, and the line is
 * changed through `rl.write` as if typed.
 */
export class HistorySearch {
  /** Readline's input. */
  readonly keys: NodeJS.ReadableStream;
  private readonly filter: FilteredKeys;
  private rl: Interface | undefined;
  private history: string[];
  private searching = false;
  private query = '';
  private index = -1;
  private saved = { line: '', cursor: 0 };
  /** The text of a bracketed paste under way (between ESC[200~ and ESC[201~), or undefined. */
  private pasted: string | undefined;
  /** A lone Esc cancelled the search as it came: the decoder's late Esc (or Esc+key) that follows is not the search's. */
  private afterEscape = false;

  constructor(
    private readonly source: KeySource,
    private readonly options: {
      history: string[];
      prompt: () => string;
      /** A bracketed paste, whole (its newlines are not Enter presses); typed into the line when not given. */
      onPaste?: (text: string) => void;
    },
  ) {
    this.filter = new FilteredKeys(source);
    this.keys = this.filter;
    this.history = options.history;
    emitKeypressEvents(source);
    source.on('keypress', this.onKey);
    source.on('data', this.onData);
  }

  /** The interface reading `keys`: its history is followed through its 'history' events. */
  attach(rl: Interface): void {
    this.rl = rl;
    rl.on('history', (history: string[]) => (this.history = history));
    rl.on('close', () => {
      this.source.off('keypress', this.onKey);
      this.source.off('data', this.onData);
    });
  }

  /**
   * A lone Esc cancels a search at once. Node's keypress decoder holds a lone Esc for half a second (it may start a
   * sequence) and glues a key typed meanwhile to it as Meta+key, which would take the match and eat the key; the raw
   * bytes show the Esc as it comes.
   */
  private readonly onData = (chunk: string | Buffer): void => {
    if (!this.rl || !this.searching || String(chunk) !== '\u001b') return;
    this.afterEscape = true;
    this.leave(this.rl, true);
  };

  private readonly onKey = (text: string | undefined, key: Key | undefined): void => {
    if (this.pasting(text, key)) return;
    if (this.afterEscape) {
      this.afterEscape = false;
      const escaped = escapedKey(key);
      if (escaped) return this.onKey(escaped.text, escaped.key);
      // The held Esc itself, decoded late: the search it cancelled is over.
      if (key?.name === 'escape') return;
    }
    if (!this.rl) this.filter.pass(text, key);
    else if (this.searching) this.searchKey(this.rl, text, key);
    else if (key?.ctrl && key.name === 'r') this.start(this.rl);
    else this.filter.pass(text, key);
  };

  /**
   * Bracketed paste: the terminal marks a paste (ESC[200~ … ESC[201~), and the text between is handed over whole
   * when it ends, so a pasted newline is never taken for Enter. True when the key belongs to a paste.
   */
  private pasting(text: string | undefined, key: Key | undefined): boolean {
    if (key?.name === 'paste-start') {
      this.pasted = '';
      return true;
    }
    if (this.pasted === undefined) return false;
    if (key?.name !== 'paste-end') {
      this.pasted += key?.sequence ?? text ?? '';
      return true;
    }
    const pasted = this.pasted;
    this.pasted = undefined;
    if (this.rl && this.searching) this.leave(this.rl, true);
    if (this.options.onPaste) this.options.onPaste(pasted);
    else this.rl?.write(pasted);
    return true;
  }

  private start(rl: Interface): void {
    this.searching = true;
    this.query = '';
    this.index = -1;
    this.saved = { line: rl.line, cursor: rl.cursor };
    this.show(rl);
  }

  private searchKey(rl: Interface, text: string | undefined, key: Key | undefined): void {
    switch (searchStep(text, key)) {
      case 'older': {
        const next = this.find(this.index + 1);
        if (next >= 0) this.index = next;
        return this.show(rl);
      }
      case 'cancel':
        return this.leave(rl, true);
      case 'cancel-then-key': {
        this.leave(rl, true);
        const escaped = escapedKey(key);
        return this.onKey(escaped?.text, escaped?.key);
      }
      case 'widen':
        this.query = this.query.slice(0, -1);
        this.index = this.find(0);
        return this.show(rl);
      case 'narrow':
        this.query += text;
        this.index = this.find(Math.max(0, this.index));
        return this.show(rl);
      case 'interrupt':
        this.leave(rl, true);
        return this.filter.pass(text, key);
      case 'take':
        this.leave(rl, false);
        return this.filter.pass(text, key);
    }
  }

  private find(from: number): number {
    if (this.query === '') return -1;
    for (let i = from; i < this.history.length; i++) if (this.history[i]?.includes(this.query)) return i;
    return -1;
  }

  private show(rl: Interface): void {
    rl.setPrompt(`(history search)'${this.query}': `);
    replaceLine(rl, this.index >= 0 ? (this.history[this.index] ?? '') : '');
  }

  private leave(rl: Interface, restore: boolean): void {
    this.searching = false;
    rl.setPrompt(this.options.prompt());
    if (restore) replaceLine(rl, this.saved.line, this.saved.cursor);
    else rl.prompt(true);
  }
}

/**
 * Replaces readline's line as keys would (Ctrl+E, Ctrl+U, the text, then left arrows back to the cursor), then draws
 * the prompt and the line afresh (muted while a turn runs; the draft shows them instead).
 */
function replaceLine(rl: Interface, line: string, cursor = line.length): void {
  rl.write(null, { ctrl: true, name: 'e' });
  rl.write(null, { ctrl: true, name: 'u' });
  const typed = line.replace(/[\r\n]/g, ' ');
  if (typed !== '') rl.write(typed);
  for (let moved = typed.length; moved > cursor; moved--) rl.write(null, { name: 'left' });
  rl.prompt(true);
}

/** A line ending with an odd number of `\` continues on the next line (the backslash is dropped). */
export function continuesOnNextLine(line: string): boolean {
  const trailing = /\\+$/.exec(line)?.[0].length ?? 0;
  return trailing % 2 === 1;
}

/**
 * Turns readline's lines into messages. On a terminal a line ending with `\` goes on at the `more` prompt (the lines
 * are one message), and a paste of several lines is one message too: marked by the terminal (bracketed paste), or
 * for terminals without it, a burst of lines within a few milliseconds. Piped input (scripts) is taken line by line.
 */
export class LineAssembler {
  private continued: string[] = [];
  private burst: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** True while a paste is typed into readline: its lines go on at the `more` prompt as if each ended in `\`. */
  private inPaste = false;

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

  /** True while a line ending in `\` (or a pasted line) waits for the rest. */
  get continuing(): boolean {
    return this.continued.length > 0;
  }

  /** The lines of the message being written before the one at the prompt (shown whole in the draft). */
  get earlierLines(): readonly string[] {
    return this.continued;
  }

  /**
   * A bracketed paste: its lines are one message. A paste that ends with a newline is sent; one that does not stays
   * at the prompt to be finished (its last line editable, the lines before it kept), and Enter sends it all.
   */
  paste(text: string): void {
    const lines = text.replace(/\r\n?/g, '\n').split('\n');
    const complete = lines.length > 1 && lines.at(-1) === '';
    if (complete) lines.pop();
    this.inPaste = true;
    try {
      // Readline takes each newline of a written string as a line of its own: they come back through feed().
      this.rl.write(lines.join('\n'));
    } finally {
      this.inPaste = false;
    }
    if (complete) this.rl.write('\r');
  }

  feed(typed: string): void {
    if (!this.options.terminal) {
      this.options.onMessage(typed);
      return;
    }
    if (this.inPaste || continuesOnNextLine(typed)) {
      this.continued.push(this.inPaste ? typed : typed.slice(0, -1));
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
