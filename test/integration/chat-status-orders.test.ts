// Chat with the built-in autopilot: an order it cannot follow gets one line saying so and how to plug in a model;
// /status asks the game afresh when no turn runs (no "as of tick" note then), piped or typed.
import { expect, it } from 'vitest';
import { runCli, tempHomes } from '../fakes/cli-process.js';

const newHome = tempHomes();

it.concurrent(
  'the autopilot says it does not take orders; /status is fresh between turns',
  async () => {
    const cli = runCli(['--tick-ms', '0'], { home: newHome() });
    try {
      await cli.waitFor(/captain/i, { timeoutMs: 20_000 });
      cli.send('/status');
      await cli.waitFor(/session \S+ · 0 turns · model builtin\/autopilot/, { timeoutMs: 20_000 });
      cli.send('go mine some iron');
      await cli.waitFor(
        /builtin\/autopilot flies its own loop and does not read what you type.*\/model openai\/gpt-4o-mini/,
        { timeoutMs: 20_000 },
      );
      await cli.waitFor(/captain › [^\n]*Next: /, { timeoutMs: 20_000 }); // the turn's closing summary
      const before = cli.stdout().length;
      cli.send('/status');
      const [, line] = await cli.waitFor(/(?:^|\n)(¢ [^\n]*tick \d+[^\n]*)\n/, { timeoutMs: 20_000, after: before });
      expect(line).not.toMatch(/as of/);
      await cli.waitFor(/session \S+ · 1 turns/, { timeoutMs: 20_000, after: before });
      cli.send('/quit');
      expect((await cli.exited).code, cli.stderr()).toBe(0);
    } finally {
      cli.kill();
    }
  },
  60_000,
);

it.concurrent(
  'piped /status then /quit: the status is asked and shown before leaving (lines wait for a command that answers later)',
  async () => {
    const home = newHome();
    const play = runCli(['--tick-ms', '0', '-s', 'piped', '--autoplay', '--max-turns', '2'], { home });
    expect((await play.exited).code, play.stderr()).toBe(0);
    const cli = runCli(['--tick-ms', '0', '-s', 'piped'], { home });
    try {
      await cli.waitFor(/\(resumed\)/, { timeoutMs: 20_000 });
      cli.send('/status');
      cli.send('/quit');
      expect((await cli.exited).code, cli.stderr()).toBe(0);
      const line = /(?:^|\n)(¢ [^\n]*)\n/.exec(cli.stdout())?.[1];
      expect(line).toMatch(/tick \d+/);
      expect(line).not.toMatch(/as of/);
      expect(cli.stdout()).toMatch(/session piped · 2 turns/);
    } finally {
      cli.kill();
    }
  },
  60_000,
);
