// The runner's watchers: the transcript renderer and status line for people, JSONL for scripts, and connection
// notices. Attached once per session by cmd/wire.ts.
import type { ChalkInstance } from 'chalk';
import type { Game } from '../shared/index.js';
import type { FlightPlan } from '../spacemolt/index.js';
import { runnerEventToJson, type JsonWriter } from './json-events.js';
import { TerminalOutput, type Output } from './output.js';
import { TranscriptRenderer } from './render.js';
import type { RunnerEvent, SessionRunner } from '../session/index.js';
import { formatStatusLine, type AutoplayLimitsShown, type ThinkingShown } from './status.js';

/** Why Skipper itself held a game call back (rule 18), as the person reads it. */
const PACED_WORDS: Record<'query_budget' | 'login_budget' | 'rejection_backoff', string> = {
  query_budget: "this captain's query budget for the minute is spent",
  login_budget: "this machine's login budget for the minute is spent",
  rejection_backoff: 'the game refused many calls from this machine lately; backing off',
};

/** A model call that failed and is tried again after a wait (the provider's retry, e.g. on a 429). */
export interface ModelRetry {
  attempt: number;
  delayMs: number;
  reason: string;
}

const seconds = (ms: number): number => Math.ceil(ms / 1000);

/** One line for a person: the game (or its auth) answered HTTP 503 and the call is tried again after the wait. */
export function unavailableLine(event: { waitMs: number; auth: boolean }): string {
  const what = event.auth ? "the game's auth is down" : 'the game is unavailable';
  return `  … ${what} (HTTP 503): retrying in ${seconds(event.waitMs)} s`;
}

/** One line for a person: the game has not answered the connection yet (said once). */
export function connectWaitLine(url: string, waitedMs: number): string {
  return `  … still connecting to the game at ${url}: no answer for ${seconds(waitedMs)} s (Ctrl+C stops)`;
}

/** One line for a person: a game call still unanswered (said once per call). */
export function waitingLine(event: { tool: string; waitedMs: number }): string {
  return `  … still waiting for the game: ${event.tool}, ${seconds(event.waitedMs)} s…`;
}

function waitingJson(event: { tool: string; waitedMs: number }): Record<string, unknown> {
  return { type: 'game-wait', reason: 'no_answer', tool: event.tool, waited_ms: event.waitedMs };
}

/** One line for a person: the model call failed and is retried after a wait. */
export function modelRetryLine(info: ModelRetry): string {
  const reason = info.reason.replace(/\s+/g, ' ').trim().slice(0, 120);
  return `  … the model call failed (${reason}): waiting ${seconds(info.delayMs)} s, then retrying (attempt ${info.attempt + 1})`;
}

/**
 * Waits and retries as one JSON event each (--json): a model call retried, the game asking us to slow down, and
 * Skipper pacing its own calls (rule 18). Without these a script saw a silent gap.
 */
export function attachJsonWaits(options: {
  game: Pick<Game, 'onEvent'>;
  retries: Set<(info: ModelRetry) => void>;
  write: JsonWriter;
}): void {
  const { write } = options;
  options.retries.add((info) =>
    write({ type: 'model-retry', attempt: info.attempt, wait_ms: info.delayMs, reason: info.reason }),
  );
  options.game.onEvent((event) => {
    if (event.type === 'rate-limited') write({ type: 'game-wait', reason: 'rate_limited', wait_ms: event.waitMs });
    else if (event.type === 'paced') write({ type: 'game-wait', reason: event.reason, wait_ms: event.waitMs });
    else if (event.type === 'unavailable') write(unavailableJson(event));
    else if (event.type === 'waiting') write(waitingJson(event));
  });
}

function unavailableJson(event: { waitMs: number; auth: boolean }): Record<string, unknown> {
  return { type: 'game-wait', reason: event.auth ? 'auth_unavailable' : 'unavailable', wait_ms: event.waitMs };
}

/**
 * Until the session's watchers are attached (the first login comes before them): each wait for an unavailable game,
 * and each call the game leaves unanswered, as its line on the terminal, or its JSON event. Returns the detach.
 */
export function attachLoginNotices(options: {
  game: Pick<Game, 'onEvent'>;
  output: Output;
  chalk: ChalkInstance;
  write: JsonWriter | undefined;
}): () => void {
  const { output, chalk, write } = options;
  return options.game.onEvent((event) => {
    if (event.type === 'waiting') {
      if (write) write(waitingJson(event));
      else output.line(chalk.dim(waitingLine(event)));
      return;
    }
    if (event.type !== 'unavailable') return;
    if (write) write(unavailableJson(event));
    else output.line(chalk.yellow(unavailableLine(event)));
  });
}

export function attachJson(runner: SessionRunner, write: JsonWriter): void {
  runner.on((event) => {
    const line = runnerEventToJson(event);
    if (line) write(line);
  });
}

export function attachTranscript(options: {
  runner: SessionRunner;
  game: Pick<Game, 'onEvent'>;
  /** Model-call retries to show, one line each (on a pipe too). */
  retries?: Set<(info: ModelRetry) => void>;
  output: Output;
  chalk: ChalkInstance;
  color: boolean;
  /** Terminal width, when drawing on a terminal (one-line items are clipped, a status line is kept). */
  width?: () => number;
  /** Planner mode: the plan in force, shown on the status line. */
  plan?: () => FlightPlan | undefined;
  /** False when chat reads a terminal, which shows the typed line already at the prompt. */
  echoTyped?: boolean;
  /** The redactor --json uses (rule 14): the transcript shows no secret either. */
  redact?: (text: string) => string;
}): void {
  const { runner, output, chalk } = options;
  const renderer = new TranscriptRenderer({
    sink: output,
    color: options.color,
    ...(options.width ? { width: options.width } : {}),
    ...(options.echoTyped === false ? { echoTyped: false } : {}),
    ...(output instanceof TerminalOutput && output.interactive && options.width ? { fold: output } : {}),
    ...(options.redact ? { redact: options.redact } : {}),
  });
  const status = new StatusLine(runner, output, chalk, options.plan);
  runner.on((event) => {
    // The loop's bookkeeping: nothing to draw, and the status line has not changed.
    if (event.type === 'round-end' || event.type === 'usage') return;
    status.follow(event);
    renderEvent(renderer, event);
    status.draw();
  });
  attachNotices(options.game, options.retries, output, chalk);
}

/** What a runner event adds to the transcript. */
function renderEvent(renderer: TranscriptRenderer, event: RunnerEvent): void {
  switch (event.type) {
    case 'turn-start':
      return renderer.turnStart(event.turn, event.input);
    case 'delta':
      if (event.delta.type === 'text') renderer.textDelta(event.delta.text);
      else if (event.delta.type === 'reasoning') renderer.reasoningDelta(event.delta.text);
      else if (event.delta.type === 'restart') renderer.restartReply();
      return;
    case 'assistant-message':
      return renderer.assistantMessage(event.message);
    case 'tool-result':
      return renderer.toolResult(event.message);
    case 'notice':
      return renderer.notice(event.text);
    case 'turn-end':
      return renderer.turnEnd(event.summary);
    default:
      return;
  }
}

/**
 * The status line under the transcript (terminals only): state, usage, the plan and autoplay's limits. While the
 * model is asked (before its text streams) it spins with the elapsed time and shows the tail of the reasoning
 * streamed so far, redrawn by a timer.
 */
class StatusLine {
  private autoplay: AutoplayLimitsShown | undefined;
  private thinking: ThinkingShown | undefined;
  private ticker: NodeJS.Timeout | undefined;

  constructor(
    private readonly runner: SessionRunner,
    private readonly output: Output,
    private readonly chalk: ChalkInstance,
    private readonly plan: (() => FlightPlan | undefined) | undefined,
  ) {}

  /** Keeps what the line shows up to date with the runner's events. */
  follow(event: RunnerEvent): void {
    if (event.type === 'autoplay') this.autoplay = event.phase === 'start' ? { ...event } : undefined;
    else if (event.type === 'round-start') this.startThinking();
    else if (event.type === 'assistant-message' || event.type === 'turn-end') this.stopThinking();
    else if (event.type === 'delta' && event.delta.type === 'text') this.stopThinking();
    else if (event.type === 'delta' && event.delta.type === 'reasoning' && this.thinking)
      this.thinking.reasoning = (this.thinking.reasoning + event.delta.text).slice(-200);
  }

  draw(): void {
    if (!this.output.interactive) return;
    const plan = this.plan?.();
    this.output.status(
      formatStatusLine({
        state: this.runner.state,
        usage: this.runner.usage,
        chalk: this.chalk,
        ...(this.runner.busy ? { busy: '⟳' } : {}),
        ...(plan ? { plan } : {}),
        ...(this.autoplay ? { autoplay: this.autoplay } : {}),
        ...(this.thinking ? { thinking: this.thinking } : {}),
      }),
    );
  }

  private startThinking(): void {
    this.thinking = { since: Date.now(), reasoning: '' };
    if (this.output.interactive && !this.ticker) {
      this.ticker = setInterval(() => {
        // A turn that threw has no turn-end: the spinner stops with it, and draws nothing (chat's prompt may be back
        // on that row already: a status line drawn there hid it).
        if (!this.runner.busy) return this.stopThinking();
        this.draw();
      }, 100);
      this.ticker.unref();
    }
  }

  private stopThinking(): void {
    this.thinking = undefined;
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
  }
}

/** Connection notices and waits, one line each on a terminal or a pipe: reconnects, logins, the game asking us to slow
 * down, Skipper pacing itself (rule 18), refused secrets and model-call retries. */
function attachNotices(
  game: Pick<Game, 'onEvent'>,
  retries: Set<(info: ModelRetry) => void> | undefined,
  output: Output,
  chalk: ChalkInstance,
): void {
  retries?.add((info) => output.line(chalk.dim(modelRetryLine(info))));
  game.onEvent((event) => {
    if (event.type === 'reconnecting')
      output.line(chalk.yellow(`  ! connection lost (${event.reason}); reconnecting (attempt ${event.attempt})…`));
    else if (event.type === 'logged-in') output.line(chalk.dim(`  logged in as ${event.username}`));
    else if (event.type === 'rate-limited')
      output.line(chalk.dim(`  … the game asks us to slow down: waiting ${Math.ceil(event.waitMs / 1000)} s`));
    else if (event.type === 'paced')
      output.line(chalk.dim(`  … ${PACED_WORDS[event.reason]}: waiting ${Math.ceil(event.waitMs / 1000)} s`));
    else if (event.type === 'unavailable') output.line(chalk.yellow(unavailableLine(event)));
    else if (event.type === 'waiting') output.line(chalk.dim(waitingLine(event)));
    else if (event.type === 'secret-refused')
      output.line(chalk.red(`  ! refused a ${event.tool} call that would have revealed a secret`));
  });
}
