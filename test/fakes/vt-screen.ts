// A small terminal screen for unit tests of what TerminalOutput draws: printable text with wrapping (and the
// pending-wrap state of a full row), \n (with the tty's CR), \r, and the escapes the output uses: erase line (2K),
// erase below (J), cursor up/down (A/B), column (G). Enough to check where things land; not a general emulator.
// The real terminal is checked by the tmux test.
export class VtScreen {
  readonly columns: number;
  readonly isTTY = true;
  private grid: string[][] = [[]];
  private row = 0;
  private col = 0;
  /** The cursor sits after the last cell of a full row: the next printable character wraps first. */
  private pendingWrap = false;

  constructor(columns: number) {
    this.columns = columns;
  }

  write(text: string): boolean {
    for (let i = 0; i < text.length; i++) {
      const char = text[i] ?? '';
      if (char === '\u001b') {
        // eslint-disable-next-line no-control-regex -- an escape sequence is what this screen reads
        const match = /^\u001b\[(\d*)([A-Za-z])/.exec(text.slice(i));
        if (!match) throw new Error(`VtScreen: unsupported escape at ${JSON.stringify(text.slice(i, i + 8))}`);
        this.escape(Number(match[1] || '1'), match[1] ?? '', match[2] ?? '');
        i += match[0].length - 1;
        continue;
      }
      if (char === '\n') {
        this.down(1, true);
        this.col = 0; // the tty turns \n into \r\n
        this.pendingWrap = false;
      } else if (char === '\r') {
        this.col = 0;
        this.pendingWrap = false;
      } else {
        if (this.pendingWrap) {
          this.down(1, true);
          this.col = 0;
          this.pendingWrap = false;
        }
        this.line()[this.col] = char;
        if (this.col === this.columns - 1) this.pendingWrap = true;
        else this.col += 1;
      }
    }
    return true;
  }

  /** The screen's rows, trailing spaces dropped. */
  text(): string[] {
    return this.grid.map((cells) =>
      Array.from({ length: cells.length }, (_, i) => cells[i] ?? ' ')
        .join('')
        .trimEnd(),
    );
  }

  cursor(): { row: number; col: number } {
    return { row: this.row, col: this.col };
  }

  private line(): string[] {
    while (this.grid.length <= this.row) this.grid.push([]);
    return this.grid[this.row] as string[];
  }

  private down(count: number, scroll: boolean): void {
    this.row += count;
    if (scroll) this.line();
    else this.row = Math.min(this.row, this.grid.length - 1);
  }

  private escape(count: number, raw: string, code: string): void {
    this.pendingWrap = false;
    switch (code) {
      case 'K':
        if (raw !== '2') throw new Error('VtScreen: only ESC[2K');
        this.grid[this.row] = [];
        break;
      case 'J':
        this.grid[this.row] = this.line().slice(0, this.col);
        this.grid.length = this.row + 1;
        break;
      case 'A':
        this.row = Math.max(0, this.row - count);
        break;
      case 'B':
        this.row += count;
        this.line();
        break;
      case 'G':
        this.col = Math.min(this.columns - 1, count - 1);
        break;
      default:
        throw new Error(`VtScreen: unsupported escape ESC[${raw}${code}`);
    }
  }
}
