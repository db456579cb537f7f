// The runner's watchers: the transcript renderer and status line for people, JSONL for scripts, and connection
// notices. Attached once per session by cmd/wire.ts.
import type { ChalkInstance } from 'chalk';
import type { FlightPlan, Game } from '../shared/index.js';
import { runnerEventToJson, type JsonWriter } from './json-events.js';
import type { Output } from './output.js';
import { TranscriptRenderer } from './render.js';
import type { SessionRunner } from '../session/index.js';
import { formatStatusLine, type AutoplayLimitsShown } from './status.js';

export function attachJson(runner: SessionRunner, write: JsonWriter): void {
  runner.on((event) => {
    const line = runnerEventToJson(event);
    if (line) write(line);
  });
}

export function attachTranscript(options: {
  runner: SessionRunner;
  game: Pick<Game, 'onEvent'>;
  output: Output;
  chalk: ChalkInstance;
  color: boolean;
  /** Terminal width, when drawing on a terminal (one-line items are clipped, a status line is kept). */
  width?: () => number;
  /** Planner mode: the plan in force, shown on the status line. */
  plan?: () => FlightPlan | undefined;
  /** False when chat reads a terminal, which shows the typed line already at the prompt. */
  echoTyped?: boolean;
}): void {
  const { runner, output, chalk } = options;
  const renderer = new TranscriptRenderer({
    sink: output,
    color: options.color,
    ...(options.width ? { width: options.width } : {}),
    ...(options.echoTyped === false ? { echoTyped: false } : {}),
  });
  let autoplay: AutoplayLimitsShown | undefined;
  runner.on((event) => {
    switch (event.type) {
      case 'autoplay':
        autoplay = event.phase === 'start' ? { ...event } : undefined;
        break;
      case 'turn-start':
        renderer.turnStart(event.turn, event.input);
        break;
      case 'delta':
        if (event.delta.kind === 'text') renderer.textDelta(event.delta.text);
        else if (event.delta.kind === 'reasoning') renderer.reasoningDelta(event.delta.text);
        else if (event.delta.kind === 'restart') renderer.restartReply();
        break;
      case 'assistant-message':
        renderer.assistantMessage(event.message);
        break;
      case 'tool-result':
        renderer.toolResult(event.message);
        break;
      case 'notice':
        renderer.notice(event.text);
        break;
      case 'turn-end':
        renderer.turnEnd(event.summary);
        break;
      case 'round-start':
      case 'round-end':
      case 'usage':
        return; // the loop's bookkeeping: nothing to draw, and the status line has not changed
      default:
        break;
    }
    if (output.interactive) {
      const plan = options.plan?.();
      output.status(
        formatStatusLine({ state: runner.state, usage: runner.usage, chalk, ...(runner.busy ? { busy: '⟳' } : {}), ...(plan ? { plan } : {}), ...(autoplay ? { autoplay } : {}) }),
      );
    }
  });
  options.game.onEvent((event) => {
    if (event.kind === 'reconnecting') output.line(chalk.yellow(`  ! connection lost (${event.reason}); reconnecting (attempt ${event.attempt})…`));
    else if (event.kind === 'logged-in') output.line(chalk.dim(`  logged in as ${event.username}`));
    else if (event.kind === 'rate-limited') output.line(chalk.dim(`  … the game asks us to slow down: waiting ${Math.ceil(event.waitMs / 1000)} s`));
    else if (event.kind === 'secret-refused') output.line(chalk.red(`  ! refused a ${event.tool} call that would have revealed a secret`));
  });
}
