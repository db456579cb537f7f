// /status says why its figures are old when the game could not be asked afresh.
import { expect, it } from 'vitest';
import { createChalk } from '../../../internal/cli/render.js';
import { runSlashCommand } from '../../../internal/cli/slash-commands.js';
import type { SessionRunner } from '../../../internal/session/index.js';

/** Runs /status against `runner` (model builtin/autopilot, no planner), its lines pushed to `lines`. */
function runStatus(runner: Record<string, unknown>, lines: string[]): ReturnType<typeof runSlashCommand> {
  return runSlashCommand('/status', {
    runner: runner as unknown as SessionRunner,
    output: {
      color: false,
      interactive: false,
      line: (text) => lines.push(text),
      write: () => {},
      status: () => {},
      clearStatus: () => {},
      error: () => {},
      aside: () => {},
    },
    chalk: createChalk(false),
    switchModel: () => {},
    describeModel: () => 'builtin/autopilot',
    quit: () => {},
    startAutoplay: () => {},
    retry: () => {},
    stop: () => {},
  });
}

it('names the reason: a not_authenticated answer after a resume says the captain logs in on its first turn', async () => {
  const state = { credits: 3160, tick: 61 };
  const runner: Record<string, unknown> = {
    state,
    busy: false,
    refreshProblem: undefined as string | undefined,
    usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, costUsd: 0 },
    sessionName: 'demo-run',
    turns: 8,
    refreshState: async () => {
      runner.refreshProblem = { reason: 'the game answered not_authenticated', code: 'not_authenticated' };
      return state;
    },
  };
  const lines: string[] = [];
  const done = runStatus(runner, lines);
  expect(done).toBeInstanceOf(Promise);
  await done;
  expect(lines[0]).toContain(
    '(as of tick 61: the game answered not_authenticated, not logged in yet: the captain logs in on its first turn)',
  );
  expect(lines[1]).toBe('session demo-run · 8 turns · model builtin/autopilot');
});

it('in planner mode names the planning model and the autopilot, not the autopilot alone', async () => {
  const state = { credits: 10, tick: 5 };
  const runner = {
    state,
    busy: true, // planner autoplay runs: the runner's provider is the flier
    refreshProblem: undefined,
    usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, costUsd: 0 },
    sessionName: 'planned',
    turns: 3,
    refreshState: async () => state,
  };
  const run = async (enabled: boolean): Promise<string[]> => {
    const lines: string[] = [];
    const output = {
      color: false,
      interactive: false,
      line: (text: string) => lines.push(text),
      write: () => {},
      status: () => {},
      clearStatus: () => {},
      error: () => {},
      aside: () => {},
    };
    await runSlashCommand('/status', {
      runner: runner as unknown as SessionRunner,
      output,
      chalk: createChalk(false),
      planner: {
        enabled: () => enabled,
        set: () => undefined,
        plan: () => undefined,
        model: () => 'openai/gpt-4o-mini',
      },
      switchModel: () => {},
      describeModel: () => 'builtin/autopilot',
      quit: () => {},
      startAutoplay: () => {},
      retry: () => {},
      stop: () => {},
    });
    return lines;
  };
  expect((await run(true))[1]).toBe(
    'session planned · 3 turns · planner mode: model openai/gpt-4o-mini plans, the autopilot flies',
  );
  expect((await run(false))[1]).toBe('session planned · 3 turns · model builtin/autopilot');
});

it('during a turn with nothing known yet, asks the game (a free query) instead of saying "no game state yet"', async () => {
  const runner: Record<string, unknown> = {
    state: undefined,
    busy: true, // the first turn runs and has not read a dashboard yet
    refreshProblem: undefined,
    usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, costUsd: 0 },
    sessionName: 'first-turn',
    turns: 0,
    refreshState: async () => {
      runner.state = { credits: 150, tick: 12 };
      return runner.state;
    },
  };
  const lines: string[] = [];
  await runStatus(runner, lines);
  expect(lines[0]).toMatch(/^¢ 150 .*tick 12/);
  expect(lines.join('\n')).not.toMatch(/no game state yet/);
});
