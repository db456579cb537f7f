// The transcript renderer: one way of drawing a session, shared by live play and replay, so a replay shows what
// was on screen. It draws from messages (and turn outcomes), never from anything only live play knows.
import { Chalk, type ChalkInstance } from 'chalk';
import { EVENTS_HEADING, describeContentPart, type Message, type ToolCall } from '../shared/index.js';
import { clipToWidth, displayWidth, formatDuration, oneLine, shortArguments } from './text.js';

/** Where rendered text goes: whole lines, or pieces of a line while a reply streams. */
export interface TextSink {
  line(text: string): void;
  write(text: string): void;
}

/** A terminal that can erase what it drew last: repeated identical actions fold into one line there. */
export interface FoldTarget {
  readonly rowsWritten: number;
  /** The screen's height, when known. */
  readonly rows?: number | undefined;
  rewind(rows: number): boolean;
}

/** Rows a repeat may sit below the run's line and still be folded into it (its narration line and the result). */
const FOLD_SPAN = 4;

interface FoldRun {
  key: string;
  shape: string;
  count: number;
  /** rowsWritten before the run's (folded) line was drawn. */
  mark: number;
  /** The first sentence's leading number, summed over the run, when every result has one. */
  sum?: { before: string; total: number; after: string };
  ms: number;
}

/** The first line with its numbers blanked: results of one kind share it ("Mined # Platinum Ore (…). …"). */
function resultShape(line: string): string {
  return line.replace(/\d[\d,.]*/g, '#');
}

/** `Mined 6 Platinum Ore (platinum_ore).` → before "Mined ", 6, after " Platinum Ore (platinum_ore)". */
function leadingCount(line: string): { before: string; total: number; after: string } | undefined {
  const match = /^([^\d.;]*?)(\d[\d,]*)([^.;]*)/.exec(line);
  if (!match) return undefined;
  const total = Number((match[2] ?? '').replace(/,/g, ''));
  return Number.isFinite(total) ? { before: match[1] ?? '', total, after: match[3] ?? '' } : undefined;
}

export interface TurnEndInfo {
  outcome: string;
  rounds: number;
  error?: string;
}

const OUTCOME_TEXT: Record<string, string> = {
  round_limit: 'stopped: round limit reached before the captain finished',
  loop_detected: 'stopped: the captain was repeating itself (loop detected)',
  budget_exceeded: 'stopped: budget exceeded',
  cancelled: 'cancelled',
  failed: 'failed',
};

/** For people: `<untrusted source="chat" from="X">text</untrusted>` reads as `X: text` (the model sees the tags). */
export function unwrapUntrusted(text: string): string {
  return text.replace(/<untrusted\b([^>]*)>([\s\S]*?)<\/untrusted>/g, (_all, attributes: string, body: string) => {
    const from = /\bfrom="([^"]*)"/.exec(attributes)?.[1];
    return from ? `${from}: ${body}` : body;
  });
}

export function createChalk(color: boolean): ChalkInstance {
  return new Chalk({ level: color ? 2 : 0 });
}

export class TranscriptRenderer {
  private readonly chalk: ChalkInstance;
  private readonly sink: TextSink;
  /** Text of the current assistant reply already written by streaming. */
  private streamed = '';
  /** Rule 14 on the terminal as in --json: every known secret written as `[redacted]`; undefined = shown as is. */
  private readonly redact: ((text: string) => string) | undefined;
  /** Streamed text held back until a whitespace ends its word: a secret split across two deltas is redacted whole. */
  private held = '';
  private reasoning = '';
  private reasoningShown = false;
  private readonly pendingCalls = new Map<string, { call: ToolCall; at: number }>();

  /** On a terminal, one-line items (tool calls, events) are clipped to its width instead of wrapping. */
  private readonly width: (() => number) | undefined;

  /** False when the person's typed line is already on screen (a terminal echoes it at the prompt): not drawn twice. */
  private readonly echoTyped: boolean;

  /** Live on a terminal only: repeated identical actions are drawn as one line that counts them. */
  private readonly fold: FoldTarget | undefined;
  private run: FoldRun | undefined;

  constructor(options: {
    sink: TextSink;
    color: boolean;
    width?: () => number;
    echoTyped?: boolean;
    fold?: FoldTarget;
    redact?: (text: string) => string;
  }) {
    const redact = options.redact;
    this.redact = redact;
    this.sink = redact
      ? { line: (text) => options.sink.line(redact(text)), write: (text) => options.sink.write(redact(text)) }
      : options.sink;
    this.fold = options.fold;
    this.echoTyped = options.echoTyped !== false;
    this.chalk = createChalk(options.color);
    this.width = options.width;
  }

  private oneLiner(text: string): void {
    this.sink.line(this.width ? clipToWidth(text, this.width() - 1) : text);
  }

  turnStart(turn: number, input: { kind: string; text: string }): void {
    const c = this.chalk;
    this.run = undefined;
    if (input.kind !== 'user' || this.echoTyped) this.sink.line('');
    if (input.kind === 'user') {
      if (this.echoTyped) this.sink.line(c.bold.cyan(`you › `) + input.text);
      return;
    }
    if (input.kind === 'handoff') {
      this.sink.line(
        c.dim(`── skipper: asking the captain for a handoff note for next time (no game tools; Ctrl+C skips it) ──`),
      );
      return;
    }
    this.sink.line(c.dim(`── turn ${turn} · ${input.kind} ──`));
    // Autoplay prompts are boilerplate except for the commander's orders and the game's events.
    let inEvents = false;
    for (const line of input.text.split('\n')) {
      if (/^Orders from your commander/.test(line)) this.sink.line(c.cyan(`  ${oneLine(line, 160)}`));
      else if (/^Note from your last turn/.test(line)) this.sink.line(c.yellow(`  ${oneLine(line, 160)}`));
      else if (line.startsWith(EVENTS_HEADING)) inEvents = true;
      else if (inEvents && line.startsWith('- '))
        this.oneLiner(c.dim(`  ✉ ${oneLine(unwrapUntrusted(line.slice(2)), 150)}`));
      else inEvents = false;
    }
  }

  /** Live only: streamed text and reasoning as it arrives. */
  textDelta(text: string): void {
    this.showReasoning();
    if (this.streamed === '') this.sink.write(this.chalk.bold.green('captain › '));
    this.streamed += text;
    if (!this.redact) {
      this.sink.write(text);
      return;
    }
    // Secrets have no whitespace: text up to the last whitespace holds only whole words, each redacted whole.
    this.held += text;
    const cut = this.held.search(/\s\S*$/) + 1;
    if (cut <= 0) return;
    this.sink.write(this.held.slice(0, cut));
    this.held = this.held.slice(cut);
  }

  /** The streamed word still held back, written (redacted by the sink) before the reply's line ends. */
  private flushHeld(): void {
    if (this.held !== '') this.sink.write(this.held);
    this.held = '';
  }

  reasoningDelta(text: string): void {
    this.reasoning += text;
  }

  /** Live only: the reply streamed so far stalled and is asked for again; what was shown of it is void. */
  restartReply(): void {
    this.held = '';
    if (this.streamed !== '') this.sink.line('');
    this.sink.line(this.chalk.dim('  ↻ the reply stalled; asking the model again'));
    this.streamed = '';
    this.reasoning = '';
    this.reasoningShown = false;
  }

  private showReasoning(): void {
    if (this.reasoningShown || this.reasoning.trim() === '') return;
    this.reasoningShown = true;
    this.oneLiner(this.chalk.dim.italic(`  ⋯ ${oneLine(this.reasoning, 160)}`));
  }

  /** A finished assistant message. In replay nothing was streamed, so its text is written here. */
  assistantMessage(message: Message): void {
    if (message.reasoning && this.reasoning === '') this.reasoning = message.reasoning;
    this.showReasoning();
    const content = message.content.trim();
    if (this.streamed !== '') {
      this.flushHeld();
      this.sink.line('');
    } else if (content !== '') {
      this.sink.line(this.chalk.bold.green('captain › ') + message.content.trimEnd());
    }
    for (const call of message.toolCalls ?? []) this.pendingCalls.set(call.id, { call, at: message.createdAt });
    this.streamed = '';
    this.reasoning = '';
    this.reasoningShown = false;
  }

  /** A tool result. Its duration is measured from the assistant message that asked for it (same live and replayed). */
  toolResult(message: Message): void {
    const c = this.chalk;
    const pending = this.takePendingCall(message);
    const name = message.toolName ?? pending?.call.name ?? '?';
    const args = pending ? shortArguments(pending.call.arguments, 48) : '';
    const mark = message.isError ? c.red('✗') : c.green('✓');
    // Parts are shown below, one line each; their descriptions at the end of the text are for the model.
    const partLines = (message.parts ?? []).map(describeContentPart);
    const [firstLine, secondLine] = resultLines(message.content, partLines);
    // On a terminal the result gets the room the line has (the whole line is clipped to the width below); 90 elsewhere.
    const ms = pending ? Math.max(0, message.createdAt - pending.at) : 0;
    const took = pending ? ` ${formatDuration(ms)}` : '';
    const duration = c.dim(took);
    // `  ✓ name args → ` and the duration around the result: the result is shortened so the duration stays in view.
    const label = `${c.bold(name)}${args ? ' ' + c.dim(args) : ''}`;
    const result = oneLine(
      firstLine.length < 24 && secondLine ? `${firstLine} ${secondLine}` : firstLine,
      this.roomBeside(label, took),
    );
    const foldable = !message.isError && partLines.length === 0;
    const key = `${name} ${pending ? JSON.stringify(pending.call.arguments) : ''}`;
    if (this.foldRepeat(key, firstLine, label, ms, foldable)) return;
    const body = `${label} ${c.dim('→')} ${message.isError ? c.red(result) : result}`;
    this.oneLiner(`  ${mark} ${body}${duration}`);
    for (const line of partLines) this.oneLiner(c.dim(`      ${line}`));
  }

  /** The call a result answers (its name, arguments and when it was asked for), taken off the pending list. */
  private takePendingCall(message: Message): { call: ToolCall; at: number } | undefined {
    if (!message.toolCallId) return undefined;
    const pending = this.pendingCalls.get(message.toolCallId);
    this.pendingCalls.delete(message.toolCallId);
    return pending;
  }

  /**
   * Folds a repeat of the last action (same tool, same arguments, a result of the same shape, no error) into the
   * line above: `✓ mine ×6 → Mined 36 Platinum Ore in all`. Only where the terminal can erase what it drew last,
   * and only when little else was drawn since. Returns true when the result was drawn folded.
   */
  private foldRepeat(key: string, firstLine: string, label: string, ms: number, foldable: boolean): boolean {
    const fold = this.fold;
    if (!fold) return false;
    const shape = resultShape(firstLine);
    const count = leadingCount(firstLine);
    const run = this.run;
    const before = fold.rowsWritten;
    if (!foldable) {
      this.run = undefined;
      return false;
    }
    if (run && run.key === key && run.shape === shape) {
      const span = before - run.mark;
      if (span > 0 && span <= FOLD_SPAN && span < (fold.rows ?? 24) - 1 && fold.rewind(span)) {
        run.count += 1;
        run.ms += ms;
        run.sum = run.sum && count ? { ...run.sum, total: run.sum.total + count.total } : undefined;
        run.mark = fold.rowsWritten;
        const c = this.chalk;
        const what = run.sum
          ? `${run.sum.before}${run.sum.total.toLocaleString('en-US')}${run.sum.after} in all`
          : firstLine;
        const each = ` ${formatDuration(Math.round(run.ms / run.count))} each`;
        const times = `×${run.count}`;
        this.oneLiner(
          `  ${c.green('✓')} ${label} ${c.cyan(times)} ${c.dim('→')} ${oneLine(what, this.roomBeside(`${label} ${times}`, each))}${c.dim(each)}`,
        );
        return true;
      }
    }
    this.run = { key, shape, count: 1, mark: before, ms, ...(count ? { sum: count } : {}) };
    return false;
  }

  /**
   * Room for a tool line's text between `  ✓ LABEL → ` and its trailing time: on a terminal what the width leaves
   * (the text is shortened, never the time), 90 elsewhere.
   */
  private roomBeside(label: string, trailing: string): number {
    return this.width
      ? Math.max(12, Math.min(400, this.width() - 1 - (7 + displayWidth(label) + trailing.length)))
      : 90;
  }

  notice(text: string): void {
    this.sink.line(this.chalk.yellow(`  ! ${text}`));
  }

  turnEnd(info: TurnEndInfo): void {
    if (this.streamed !== '') {
      this.flushHeld();
      this.sink.line('');
      this.streamed = '';
    }
    this.pendingCalls.clear();
    if (info.outcome === 'answered') return;
    // A limit the person set is no trouble: said plainly, not as a warning.
    if (info.outcome === 'limit_reached') {
      this.sink.line(
        this.chalk.dim(`  · turn stopped at the limit${info.error ? ` (${oneLine(info.error, 120)})` : ''}`),
      );
      return;
    }
    const text = OUTCOME_TEXT[info.outcome] ?? info.outcome;
    const detail = info.error && info.error !== info.outcome ? ` (${oneLine(info.error, 120)})` : '';
    this.sink.line(this.chalk.yellow(`  ⚠ ${text}${detail} after ${info.rounds} round${info.rounds === 1 ? '' : 's'}`));
  }

  /** Replays stored messages of one turn through the same drawing code as live play. */
  replayMessage(message: Message): void {
    if (message.role === 'assistant') this.assistantMessage(message);
    else if (message.role === 'tool') this.toolResult(message);
  }
}

/**
 * A tool result's first two lines, without the descriptions of its parts (shown on their own lines). The first line
 * says what happened; the rest is the dashboard the status line already shows.
 */
function resultLines(content: string, partLines: string[]): [string, string] {
  const text = content
    .split('\n')
    .filter((line) => !partLines.includes(line))
    .join('\n');
  const json = jsonLine(text);
  if (json !== undefined) return [json, ''];
  const [firstLine = '', secondLine = ''] = text.trim().split('\n');
  return [firstLine, secondLine];
}

/**
 * A JSON answer (SpaceMolt's /mcp face answers JSON) on one line: its sentence when it carries one (`message`), else
 * the object compacted; undefined for text that is not one JSON object.
 */
function jsonLine(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
    const message = (value as { message?: unknown }).message;
    return typeof message === 'string' && message.trim() !== '' ? message.trim() : JSON.stringify(value);
  } catch {
    return undefined;
  }
}
