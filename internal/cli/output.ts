// Where the person's text goes. A terminal gets colour and a status line that is erased before anything else is
// drawn and clipped to the width (so it never wraps); a pipe gets plain lines and no status line.
import type { FoldTarget, TextSink } from './render.js';
import { clipToWidth, displayWidth } from './text.js';

export interface Output extends TextSink {
  readonly color: boolean;
  readonly interactive: boolean;
  /** Shows a transient status line (terminals only). */
  status(text: string): void;
  clearStatus(): void;
  /** Clears the terminal screen (chat's /clear); nothing elsewhere. */
  clearScreen?(): void;
  /**
   * What the person is typing while a turn runs, shown in place of the status line (terminals only): readline's own
   * echo is muted then, so keys never land inside a streamed reply.
   */
  draft?(text: string): void;
  /**
   * A line that is not part of the transcript (a queued-line notice, a slash command's answer typed during a turn):
   * while a streamed reply's line is open it waits for that line to end instead of splicing into it.
   */
  aside(text: string): void;
  /** A message for the person on stderr (errors, warnings). */
  error(text: string): void;
}

interface Stream {
  write(text: string): boolean;
  isTTY?: boolean;
  columns?: number;
  rows?: number;
  on?(event: 'resize', listener: () => void): unknown;
}

/** A terminal that can also erase what it drew last (the renderer's fold of repeated actions). */
/** The terminal output in use, if any: what tidyTerminal leaves clean. */
const inUse: { terminal?: TerminalOutput } = {};

/** Erases the status line and leaves the cursor at the start of a clean line (every exit path calls it). */
export function tidyTerminal(): void {
  inUse.terminal?.leave();
}

export class TerminalOutput implements Output, FoldTarget {
  readonly color: boolean;
  readonly interactive: boolean;
  private readonly stdout: Stream;
  private readonly stderr: Stream;
  private statusText = '';
  private statusShown = false;
  /** Rows the status area took when drawn: asides waiting for the stream's line, then the draft or status line. */
  private statusRows = 0;
  /** The status line is drawn on the row below an open streamed line (the cursor stays in the stream). */
  private statusBelow = false;
  /** True while a streamed line is open (no newline yet): the status line goes on the row below it. */
  private midLine = false;
  private draftText = '';
  private readonly asides: string[] = [];
  private written = 0;
  /** Cells used on the open line. */
  private column = 0;

  constructor(options: { stdout: Stream; stderr: Stream; color: boolean; interactive: boolean }) {
    this.stdout = options.stdout;
    this.stderr = options.stderr;
    // A resize rewraps what is on screen: rows counted before it cannot be rewound to.
    if (options.interactive) options.stdout.on?.('resize', () => this.forgetRows());
    this.color = options.color;
    this.interactive = options.interactive;
    if (options.interactive) inUse.terminal = this;
  }

  /**
   * The program leaves: the status line and the draft are erased and the cursor is put at the start of a clean line
   * (an open streamed line is ended; a row holding only a prompt or nothing is cleared), so the shell's prompt that
   * comes next stands on its own.
   */
  leave(): void {
    if (!this.interactive) return;
    this.draftText = '';
    this.statusText = '';
    this.eraseStatus();
    if (this.midLine) this.put(this.stdout, '\n');
    else this.stdout.write('\r\u001b[2K');
    this.midLine = false;
  }

  private width(): number {
    return Math.max(20, this.stdout.columns ?? 80);
  }

  /** The terminal's height, for the fold (which never reaches above the screen). */
  get rows(): number | undefined {
    return this.stdout.rows;
  }

  /** Rows of the screen filled so far (wrapped lines count each row; the status line does not count). */
  get rowsWritten(): number {
    return this.written;
  }

  /** Counts the rows text fills on screen, wrapping at the width. */
  private count(text: string): void {
    const width = this.width();
    const pieces = text.split('\n');
    pieces.forEach((piece, index) => {
      this.column += displayWidth(piece);
      if (index < pieces.length - 1) {
        this.written += Math.max(1, Math.ceil(this.column / width));
        this.column = 0;
      }
    });
  }

  private put(stream: Stream, text: string): void {
    if (this.interactive) this.count(text); // only a terminal rewinds
    stream.write(text);
  }

  /** True when `text` goes on the open line's current row without filling it: a status line below stays valid. */
  private staysOnRow(text: string): boolean {
    if (text.includes('\n')) return false;
    const width = this.width();
    const rowEnd = (Math.floor(this.column / width) + 1) * width;
    return this.column + displayWidth(text) < rowEnd;
  }

  private eraseStatus(): void {
    if (!this.statusShown) return;
    const rows = this.statusRows;
    // Below an open line: down row by row erasing each, back up (the column is kept by these moves). Otherwise the
    // cursor ends on the last row drawn: erase it and each row above it up to the first.
    this.stdout.write(
      this.statusBelow
        ? `${'\u001b[1B\u001b[2K'.repeat(rows)}\u001b[${rows}A`
        : `\r\u001b[2K${'\u001b[1A\u001b[2K'.repeat(rows - 1)}`,
    );
    this.statusShown = false;
    this.statusBelow = false;
    this.statusRows = 0;
  }

  /**
   * The rows of the status area: asides waiting for an open streamed line to end (shown at once, printed for good
   * when it ends), then what the person types during a turn (every line of a multi-line message), or else the status.
   */
  private statusAreaRows(): string[] {
    const text = this.draftText !== '' ? this.draftText : this.statusText;
    const rows = this.midLine ? [...this.asides] : [];
    if (text !== '') rows.push(...text.split('\n'));
    const width = this.width();
    return rows.map((row) => clipToWidth(row, width - 1));
  }

  private drawStatus(): void {
    if (!this.interactive) return;
    const rows = this.statusAreaRows();
    if (rows.length === 0) return;
    if (!this.midLine) {
      // The cursor ends after the last row, as at a prompt.
      this.stdout.write(rows.join('\n\r\u001b[2K'));
      this.statusShown = true;
      this.statusRows = rows.length;
      return;
    }
    // A streamed line is open: the status goes on the rows below and the cursor comes back to where the stream goes
    // on. Not when the line just filled the row (the terminal is about to wrap: moving back would lose that).
    const width = this.width();
    const column = this.column % width;
    if (this.column > 0 && column === 0) return;
    const below = rows.map((row) => `\n\r\u001b[2K${row}`).join('');
    this.stdout.write(`${below}\u001b[${rows.length}A\u001b[${column + 1}G`);
    this.statusShown = true;
    this.statusBelow = true;
    this.statusRows = rows.length;
  }

  /** Asides held while a streamed line was open, now that it ended. */
  private flushAsides(): void {
    while (!this.midLine && this.asides.length > 0) this.put(this.stdout, `${this.asides.shift()}\n`);
  }

  line(text: string): void {
    this.eraseStatus();
    this.put(this.stdout, `${text}\n`);
    this.midLine = false;
    this.flushAsides();
    this.drawStatus();
  }

  write(text: string): void {
    if (text === '') return;
    // A streamed piece that stays on its row leaves the status line below it as it is (no redraw per token).
    if (this.statusBelow && this.midLine && this.staysOnRow(text)) {
      this.put(this.stdout, text);
      return;
    }
    this.eraseStatus();
    this.put(this.stdout, text);
    this.midLine = !text.endsWith('\n');
    if (!this.midLine) this.flushAsides();
    this.drawStatus();
  }

  aside(text: string): void {
    if (!this.midLine) return this.line(text);
    // Held for good until the line ends, but shown at once below it.
    this.asides.push(text);
    this.eraseStatus();
    this.drawStatus();
  }

  draft(text: string): void {
    if (!this.interactive || text === this.draftText) return;
    this.draftText = text;
    this.eraseStatus();
    this.drawStatus();
  }

  /** Erases the last `rows` rows drawn (terminals only, between lines). */
  rewind(rows: number): boolean {
    if (!this.interactive || this.midLine || rows <= 0) return false;
    this.eraseStatus();
    this.stdout.write(`\u001b[${rows}A\r\u001b[J`);
    this.written = Math.max(0, this.written - rows);
    return true;
  }

  status(text: string): void {
    if (text === this.statusText && this.statusShown) return;
    this.statusText = text;
    if (!this.interactive) return;
    this.eraseStatus();
    this.drawStatus();
  }

  clearStatus(): void {
    this.eraseStatus();
    this.statusText = '';
  }

  clearScreen(): void {
    if (!this.interactive) return;
    this.eraseStatus();
    this.stdout.write('\x1b[2J\x1b[3J\x1b[H');
    this.forgetRows(); // nothing drawn before the clear can be rewound to
    this.column = 0;
  }

  /** Puts what was drawn so far out of rewind's reach (the row count jumps past any fold's span). */
  private forgetRows(): void {
    this.written += 1_000_000;
  }

  error(text: string): void {
    this.eraseStatus();
    if (this.midLine) {
      this.put(this.stdout, '\n');
      this.midLine = false;
    }
    this.put(this.stderr, `${text}\n`);
    this.flushAsides();
    this.drawStatus();
  }
}

/** For --json: the transcript is not drawn; only errors reach stderr. */
export class SilentOutput implements Output {
  readonly color = false;
  readonly interactive = false;
  private readonly stderr: Stream;
  constructor(stderr: Stream) {
    this.stderr = stderr;
  }
  line(): void {}
  write(): void {}
  aside(): void {}
  status(): void {}
  clearStatus(): void {}
  error(text: string): void {
    this.stderr.write(`${text}\n`);
  }
}

/** Colour only on a terminal, never with NO_COLOR set (https://no-color.org), FORCE_COLOR forces it. */
export function wantsColor(stream: Stream, env: Record<string, string | undefined>): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

/** The output slash commands get in chat: while a turn runs (`busy`) their lines are asides, never inside a stream. */
export function asidesWhile(output: Output, busy: () => boolean): Output {
  return {
    get color() {
      return output.color;
    },
    get interactive() {
      return output.interactive;
    },
    line: (text) => (busy() ? output.aside(text) : output.line(text)),
    aside: (text) => output.aside(text),
    write: (text) => output.write(text),
    status: (text) => output.status(text),
    clearStatus: () => output.clearStatus(),
    clearScreen: () => output.clearScreen?.(),
    error: (text) => output.error(text),
  };
}
