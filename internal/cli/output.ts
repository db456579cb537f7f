// Where the person's text goes. A terminal gets colour and a status line that is erased before anything else is
// drawn and clipped to the width (so it never wraps); a pipe gets plain lines and no status line.
import type { TextSink } from './render.js';
import { clipToWidth } from './text.js';

export interface Output extends TextSink {
  readonly color: boolean;
  readonly interactive: boolean;
  /** Shows a transient status line (terminals only). */
  status(text: string): void;
  clearStatus(): void;
  /** Clears the terminal screen (chat's /clear); nothing elsewhere. */
  clearScreen?(): void;
  /** A message for the person on stderr (errors, warnings). */
  error(text: string): void;
}

interface Stream {
  write(text: string): boolean;
  isTTY?: boolean;
  columns?: number;
}

export class TerminalOutput implements Output {
  readonly color: boolean;
  readonly interactive: boolean;
  private readonly stdout: Stream;
  private readonly stderr: Stream;
  private statusText = '';
  private statusShown = false;
  /** True while a streamed line is open (no newline yet): the status line must wait. */
  private midLine = false;

  constructor(options: { stdout: Stream; stderr: Stream; color: boolean; interactive: boolean }) {
    this.stdout = options.stdout;
    this.stderr = options.stderr;
    this.color = options.color;
    this.interactive = options.interactive;
  }

  private width(): number {
    return Math.max(20, this.stdout.columns ?? 80);
  }

  private eraseStatus(): void {
    if (this.statusShown) {
      this.stdout.write('\r\u001b[2K');
      this.statusShown = false;
    }
  }

  private drawStatus(): void {
    if (!this.interactive || this.statusText === '' || this.midLine) return;
    this.stdout.write(clipToWidth(this.statusText, this.width() - 1));
    this.statusShown = true;
  }

  line(text: string): void {
    this.eraseStatus();
    this.stdout.write(`${text}\n`);
    this.midLine = false;
    this.drawStatus();
  }

  write(text: string): void {
    if (text === '') return;
    this.eraseStatus();
    this.stdout.write(text);
    this.midLine = !text.endsWith('\n');
    if (!this.midLine) this.drawStatus();
  }

  status(text: string): void {
    this.statusText = text;
    if (!this.interactive || this.midLine) return;
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
  }

  error(text: string): void {
    this.eraseStatus();
    if (this.midLine) {
      this.stdout.write('\n');
      this.midLine = false;
    }
    this.stderr.write(`${text}\n`);
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
