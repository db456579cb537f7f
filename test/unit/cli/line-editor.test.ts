import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { continuesOnNextLine, HistorySearch, LineAssembler, MutableOutput } from '../../../internal/cli/line-editor.js';
import { TerminalOutput } from '../../../internal/cli/output.js';
import { VtScreen } from '../../fakes/vt-screen.js';

function screen(): { write(text: string | Uint8Array): boolean; text: string; columns: number; isTTY: boolean } {
  return {
    text: '',
    columns: 80,
    isTTY: true,
    write(chunk) {
      this.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      return true;
    },
  };
}

function editor(history: string[] = []) {
  const input = new PassThrough();
  const terminal = screen();
  const echo = new MutableOutput(terminal);
  const search = new HistorySearch(input, { history, prompt: () => 'you › ' });
  const rl = createInterface({ input: search.keys, output: echo, terminal: true, history, prompt: 'you › ' });
  search.attach(rl);
  const lines: string[] = [];
  rl.on('line', (line) => lines.push(line));
  // Readline is not patched: no key handler of its own is shadowed (the search sees keys before readline does).
  const patched =
    Object.hasOwn(rl, '_ttyWrite') || Object.getOwnPropertySymbols(rl).some((key) => key.description === '_ttyWrite');
  const type = (keys: string): Promise<void> => {
    input.write(keys);
    return new Promise((resolve) => setImmediate(resolve));
  };
  return { rl, echo, terminal, lines, patched, type };
}

describe('MutableOutput', () => {
  it('echoes keys on the terminal, and nothing while muted (the line is still edited)', async () => {
    const { rl, echo, terminal, type } = editor();
    await type('abc');
    expect(terminal.text).toContain('abc');
    echo.muted = true;
    const before = terminal.text;
    await type('xyz');
    expect(terminal.text).toBe(before);
    expect(rl.line).toBe('abcxyz');
    echo.muted = false;
    rl.prompt(true);
    expect(terminal.text.slice(before.length)).toContain('you › abcxyz');
    rl.close();
  });

  it('unmuted after a long line typed while muted, the prompt is drawn where the cursor is (no rows climbed)', async () => {
    const { rl, echo, terminal, type } = editor();
    terminal.columns = 20;
    echo.muted = true;
    await type('a line typed while muted that wraps three rows');
    echo.muted = false;
    const before = terminal.text.length;
    rl.prompt(true);
    const drawn = terminal.text.slice(before);
    expect(drawn).toContain('you › a line typed');
    expect(drawn).not.toMatch(/\[\d*A/); // CSI n A: cursor up
    rl.close();
  });

  it('reports the terminal size to readline', () => {
    const terminal = screen();
    terminal.columns = 132;
    expect(new MutableOutput(terminal).columns).toBe(132);
  });
});

describe('Ctrl+R history search', () => {
  it('finds the newest match, an older one on Ctrl+R again, and Enter sends it', async () => {
    const { rl, lines, patched, type, terminal } = editor(['mine twice', 'sell all', 'mine once']);
    expect(patched).toBe(false);
    await type('\x12');
    await type('min');
    expect(rl.line).toBe('mine twice');
    expect(terminal.text).toContain("(history search)'min': mine twice");
    await type('\x12');
    expect(rl.line).toBe('mine once');
    await type('\r');
    expect(lines).toEqual(['mine once']);
    expect(rl.getPrompt()).toBe('you › ');
    rl.close();
  });

  it('Ctrl+G gives back the line as it was; backspace widens the search', async () => {
    const { rl, lines, type } = editor(['dock now', 'travel to sol']);
    await type('half typed');
    await type('\x12');
    await type('tra');
    expect(rl.line).toBe('travel to sol');
    await type('\x7f\x7f\x7f');
    expect(rl.line).toBe('');
    await type('do');
    expect(rl.line).toBe('dock now');
    await type('\x07');
    expect(rl.line).toBe('half typed');
    expect(rl.getPrompt()).toBe('you › ');
    expect(lines).toEqual([]);
    rl.close();
  });

  it('Esc cancels at once, and a key typed right after it is typed as usual (no Meta+key taking the match)', async () => {
    const { rl, lines, type } = editor(['mineclear the belt']);
    await type('and then ');
    await type('\x12');
    await type('mine');
    expect(rl.line).toBe('mineclear the belt');
    await type('\x1b');
    // Cancelled as the Esc came, not half a second later when node's decoder gives it up as a lone Esc.
    expect(rl.line).toBe('and then ');
    expect(rl.getPrompt()).toBe('you › ');
    await type('x');
    expect(rl.line).toBe('and then x');
    await new Promise((resolve) => setTimeout(resolve, 600)); // the decoder's late Esc changes nothing
    await type('\r');
    expect(lines).toEqual(['and then x']);
    rl.close();
  });

  it('Esc and a key in one read (Meta+key to the decoder) also cancel, then type the key', async () => {
    const { rl, lines, type } = editor(['mineclear the belt']);
    await type('go ');
    await type('\x12');
    await type('mine');
    await type('\x1bm');
    expect(rl.line).toBe('go m');
    await type('\x12');
    await type('clear');
    await type('\x1b\r'); // Esc, Enter: the line as it was is sent, not the match
    expect(lines).toEqual(['go m']);
    rl.close();
  });

  it('an arrow key takes the match and goes on editing', async () => {
    const { rl, lines, type } = editor(['scan the belt']);
    await type('\x12');
    await type('scan');
    await type('\x1b[D'); // left arrow
    await type('!');
    await type('\r');
    expect(lines).toEqual(['scan the bel!t']);
    rl.close();
  });
});

describe('Ctrl+R between the terminal and readline', () => {
  it('passes every other key through to readline: editing keys, tab completion, Ctrl+C as SIGINT', async () => {
    const input = new PassThrough();
    const search = new HistorySearch(input, { history: [], prompt: () => 'you › ' });
    const completer = (line: string): [string[], string] => [['/help'].filter((c) => c.startsWith(line)), line];
    const rl = createInterface({ input: search.keys, output: new MutableOutput(screen()), terminal: true, completer });
    search.attach(rl);
    let interrupts = 0;
    rl.on('SIGINT', () => (interrupts += 1));
    const type = (keys: string): Promise<void> => {
      input.write(keys);
      return new Promise((resolve) => setImmediate(resolve));
    };
    await type('/he\t');
    expect(rl.line).toBe('/help');
    await type('\x01X'); // Ctrl+A, then a key at the line's start
    expect(rl.line).toBe('X/help');
    await type('\x03');
    expect(interrupts).toBe(1);
    rl.close();
  });

  it('Ctrl+C during a search gives the line back and still reaches readline; the history follows new lines', async () => {
    const input = new PassThrough();
    const search = new HistorySearch(input, { history: ['old line'], prompt: () => 'you › ' });
    const rl = createInterface({ input: search.keys, output: new MutableOutput(screen()), terminal: true });
    rl.setPrompt('you › ');
    search.attach(rl);
    let interrupts = 0;
    rl.on('SIGINT', () => (interrupts += 1));
    const type = (keys: string): Promise<void> => {
      input.write(keys);
      return new Promise((resolve) => setImmediate(resolve));
    };
    await type('fresh words\r');
    await type('draft');
    await type('\x12fre');
    expect(rl.line).toBe('fresh words');
    await type('\x03');
    expect(interrupts).toBe(1);
    expect(rl.line).toBe('draft');
    expect(rl.getPrompt()).toBe('you › ');
    rl.close();
  });
});

describe('continuesOnNextLine', () => {
  it('is true for one trailing backslash, false for an escaped one', () => {
    expect(continuesOnNextLine('go on \\')).toBe(true);
    expect(continuesOnNextLine('a path C:\\\\')).toBe(false);
    expect(continuesOnNextLine('plain')).toBe(false);
    expect(continuesOnNextLine('\\\\\\')).toBe(true);
  });
});

describe('LineAssembler', () => {
  const assemble = (terminal: boolean) => {
    const { rl } = editor();
    const messages: string[] = [];
    let prompts = 0;
    const lines = new LineAssembler(rl, {
      terminal,
      prompts: { main: 'you › ', more: '   … ' },
      onMessage: (text) => messages.push(text),
      showPrompt: () => (prompts += 1),
    });
    return { rl, lines, messages, prompts: () => prompts };
  };
  // Lines typed within 15 ms are one burst (a paste): the clock is faked, and settle() moves it past the window.
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const settle = async (): Promise<void> => {
    await vi.advanceTimersByTimeAsync(15);
  };

  it('joins a line ending in \\ with the next, at the … prompt', async () => {
    const { rl, lines, messages, prompts } = assemble(true);
    lines.feed('first part \\');
    expect(lines.continuing).toBe(true);
    expect(rl.getPrompt()).toBe('   … ');
    expect(prompts()).toBe(1);
    lines.feed('second part');
    expect(messages).toEqual([]);
    await settle();
    expect(messages).toEqual(['first part \nsecond part']);
    expect(rl.getPrompt()).toBe('you › ');
    rl.close();
  });

  it('makes one message of a pasted burst, and drop() forgets a half-written one', async () => {
    const { rl, lines, messages } = assemble(true);
    lines.feed('line one');
    lines.feed('line two');
    await vi.advanceTimersByTimeAsync(14);
    expect(messages).toEqual([]);
    await settle();
    lines.feed('unfinished \\');
    lines.drop();
    expect(lines.continuing).toBe(false);
    lines.feed('fresh');
    await settle();
    expect(messages).toEqual(['line one\nline two', 'fresh']);
    rl.close();
  });

  it('takes piped input line by line, backslashes and all', () => {
    const { rl, lines, messages } = assemble(false);
    lines.feed('a \\');
    lines.feed('b');
    expect(messages).toEqual(['a \\', 'b']);
    rl.close();
  });
});

describe('TerminalOutput asides, draft and rewind', () => {
  const make = () => {
    const stdout = screen();
    const stderr = screen();
    return { stdout, output: new TerminalOutput({ stdout, stderr, color: false, interactive: true }) };
  };

  it('shows an aside below an open streamed line at once, and prints it for good after that line', () => {
    const vt = new VtScreen(60);
    const output = new TerminalOutput({ stdout: vt, stderr: vt, color: false, interactive: true });
    output.write('captain › This is a');
    output.aside('  queued: and then mine');
    expect(vt.text()).toEqual(['captain › This is a', '  queued: and then mine']);
    expect(vt.cursor()).toEqual({ row: 0, col: 19 });
    output.draft('you › half');
    expect(vt.text()).toEqual(['captain › This is a', '  queued: and then mine', 'you › half']);
    output.write(' long reply.');
    expect(vt.text()).toEqual(['captain › This is a long reply.', '  queued: and then mine', 'you › half']);
    output.line('');
    expect(vt.text()).toEqual(['captain › This is a long reply.', '  queued: and then mine', 'you › half']);
    expect(vt.cursor()).toEqual({ row: 2, col: 10 });
    output.draft('');
    output.aside('right away');
    expect(vt.text()).toEqual(['captain › This is a long reply.', '  queued: and then mine', 'right away', '']);
  });

  it('draws a draft of several lines whole, and erases every row of it', () => {
    const vt = new VtScreen(60);
    const output = new TerminalOutput({ stdout: vt, stderr: vt, color: false, interactive: true });
    output.write('captain › streaming');
    output.draft('you › first line\n   … second line');
    expect(vt.text()).toEqual(['captain › streaming', 'you › first line', '   … second line']);
    output.write(' on');
    output.line('');
    expect(vt.text()).toEqual(['captain › streaming on', 'you › first line', '   … second line']);
    output.draft('you › x');
    expect(vt.text()).toEqual(['captain › streaming on', 'you › x', '']); // the row below erased
    expect(vt.cursor()).toEqual({ row: 1, col: 7 });
    output.draft('');
    expect(vt.text()).toEqual(['captain › streaming on', '', '']);
  });

  it('shows the draft (or the status) on the row below an open streamed line, and the stream goes on intact', () => {
    const vt = new VtScreen(40);
    const output = new TerminalOutput({ stdout: vt, stderr: vt, color: false, interactive: true });
    output.status('¢ 100');
    output.write('captain › streaming');
    expect(vt.text()).toEqual(['captain › streaming', '¢ 100']);
    expect(vt.cursor()).toEqual({ row: 0, col: 19 });
    output.draft('you › half');
    expect(vt.text()).toEqual(['captain › streaming', 'you › half']);
    output.write(' and more text that wraps past the fortieth column');
    const stream = 'captain › streaming and more text that wraps past the fortieth column';
    expect(vt.text()).toEqual([stream.slice(0, 40), stream.slice(40), 'you › half']);
    // A piece that ends exactly at the row's end: nothing is drawn below (the terminal is about to wrap) and the next
    // piece still lands on the next row.
    output.write('x'.repeat(40 - stream.slice(40).length));
    output.write('tail');
    const rows = vt.text();
    expect(rows.slice(0, 3).join('')).toBe(`${stream}${'x'.repeat(40 - stream.slice(40).length)}tail`);
    expect(rows[3]).toBe('you › half');
    output.line('');
    expect(vt.text().at(-1)).toBe('you › half');
    expect(vt.text().filter((row) => row.includes('half'))).toHaveLength(1);
    output.draft('');
    expect(vt.text().at(-1)).toBe('¢ 100');
  });

  it('leaves the status below alone while streamed pieces stay on their row (nothing but the text is written)', () => {
    const vt = new VtScreen(40);
    const written: string[] = [];
    const stdout = { columns: 40, isTTY: true, write: (text: string) => (written.push(text), vt.write(text)) };
    const output = new TerminalOutput({ stdout, stderr: stdout, color: false, interactive: true });
    output.status('¢ 100');
    output.write('captain › one');
    written.length = 0;
    output.write(' two');
    output.write(' three');
    expect(written).toEqual([' two', ' three']);
    expect(vt.text()).toEqual(['captain › one two three', '¢ 100']);
    // A piece that reaches the row's end goes the long way: the status is erased first, and drawn below again.
    output.write(` ${'x'.repeat(20)}`);
    expect(written.length).toBeGreaterThan(3);
    expect(vt.text()).toEqual([`captain › one two three ${'x'.repeat(16)}`, 'xxxx', '¢ 100']);
  });

  it('counts the rows it fills, wrapped lines and streamed pieces included, the status line not', () => {
    const { stdout, output } = make();
    stdout.columns = 40;
    output.status('status line');
    output.line('x'.repeat(100));
    expect(output.rowsWritten).toBe(3);
    output.write('captain › ');
    output.write('y'.repeat(31)); // 41 cells: two rows at 40 columns
    expect(output.rowsWritten).toBe(3);
    output.line('');
    expect(output.rowsWritten).toBe(5);
    output.line('');
    expect(output.rowsWritten).toBe(6);
    expect(output.rewind(2)).toBe(true);
    expect(output.rowsWritten).toBe(4);
  });

  it('cannot rewind across a resize or a /clear (what is on screen was redrawn)', () => {
    const listeners: (() => void)[] = [];
    const stdout = Object.assign(screen(), {
      on: (_event: 'resize', listener: () => void) => listeners.push(listener),
    });
    const output = new TerminalOutput({ stdout, stderr: screen(), color: false, interactive: true });
    output.line('one');
    const before = output.rowsWritten;
    listeners.forEach((listener) => listener());
    expect(output.rowsWritten - before).toBeGreaterThan(1000);
    const afterResize = output.rowsWritten;
    output.clearScreen();
    expect(output.rowsWritten - afterResize).toBeGreaterThan(1000);
  });

  it('rewinds whole rows only between lines', () => {
    const { stdout, output } = make();
    output.line('one');
    output.line('two');
    expect(output.rewind(2)).toBe(true);
    expect(stdout.text.endsWith('\u001b[2A\r\u001b[J')).toBe(true);
    output.write('open');
    expect(output.rewind(1)).toBe(false);
  });
});

describe('bracketed paste (ESC[200~ … ESC[201~)', () => {
  /** The chat's wiring: the search hands a paste to the assembler, readline's lines go to it too. */
  const pasteEditor = (history: string[] = []) => {
    const input = new PassThrough();
    const terminal = screen();
    const messages: string[] = [];
    const wired: { lines?: LineAssembler } = {};
    const search = new HistorySearch(input, {
      history,
      prompt: () => 'you › ',
      onPaste: (text) => wired.lines?.paste(text),
    });
    const rl = createInterface({ input: search.keys, output: new MutableOutput(terminal), terminal: true, history });
    search.attach(rl);
    const assembler = new LineAssembler(rl, {
      terminal: true,
      prompts: { main: 'you › ', more: '   … ' },
      onMessage: (text) => messages.push(text),
      showPrompt: () => rl.prompt(true),
    });
    wired.lines = assembler;
    rl.on('line', (line) => assembler.feed(line));
    const type = async (keys: string): Promise<void> => {
      input.write(keys);
      await new Promise((resolve) => setTimeout(resolve, 30)); // past the 15 ms burst window
    };
    return { rl, lines: assembler, messages, terminal, type };
  };

  it('keeps a paste without a final newline as one draft, the lines before it kept; Enter sends it whole', async () => {
    const { rl, lines, messages, terminal, type } = pasteEditor();
    await type('say: ');
    await type('\x1b[200~first pasted\rsecond pasted\x1b[201~');
    expect(messages).toEqual([]);
    expect(rl.line).toBe('second pasted');
    expect(lines.earlierLines).toEqual(['say: first pasted']);
    // eslint-disable-next-line no-control-regex -- readline's cursor moves, dropped to read what it drew
    expect(terminal.text.replace(/\u001b\[\d*[A-Za-z]/g, '')).toContain('   … second pasted');
    await type(' and typed');
    await type('\r');
    expect(messages).toEqual(['say: first pasted\nsecond pasted and typed']);
    expect(rl.getPrompt()).toBe('you › ');
    rl.close();
  });

  it('sends a paste that ends with a newline as one message, however slowly its lines arrive', async () => {
    const { rl, messages, type } = pasteEditor();
    await type('\x1b[200~line one\r');
    await type('line two\r\nline three\r');
    expect(messages).toEqual([]);
    await type('\x1b[201~');
    expect(messages).toEqual(['line one\nline two\nline three']);
    rl.close();
  });

  it('a one-line paste is typed into the line, tabs and all, and sends nothing', async () => {
    const { rl, messages, type } = pasteEditor();
    await type('\x1b[200~a\tb\x1b[201~');
    expect(rl.line).toBe('a\tb');
    expect(messages).toEqual([]);
    rl.close();
  });

  it('a paste during a history search ends the search with the line given back, then is typed', async () => {
    const { rl, type } = pasteEditor(['mineclear']);
    await type('x ');
    await type('\x12mine');
    expect(rl.line).toBe('mineclear');
    await type('\x1b[200~pasted\x1b[201~');
    expect(rl.line).toBe('x pasted');
    rl.close();
  });
});
