// `skipper export --format md` opens with the session's outcome (the report's figures and a text plot) and folds
// long tool results, from a real autoplay run of the built CLI.
import { expect, it } from 'vitest';
import { runCli, tempHomes } from '../fakes/cli-process.js';

const newHome = tempHomes();

it('the Markdown export opens with the outcome and folds long results', async () => {
  const home = newHome();
  const play = runCli(['--autoplay', '--max-ticks', '40', '--tick-ms', '0', '-s', 'outcome', '--json'], { home });
  expect((await play.exited).code, play.stderr()).toBe(0);
  const end = JSON.parse(play.stdout().trim().split('\n').at(-1)!) as Record<string, number>;
  const exported = runCli(['export', 'outcome', '--format', 'md'], { home });
  expect((await exported.exited).code, exported.stderr()).toBe(0);
  const md = exported.stdout();
  const outcome = md.indexOf('## Outcome');
  expect(outcome).toBeGreaterThan(md.indexOf('# Session outcome'));
  expect(outcome).toBeLessThan(md.indexOf('## Turn 1'));
  expect(md).toContain(`- ticks: ${end.ticks}`);
  const gain = end.credits_end! - end.credits_start!;
  expect(md).toContain(`(${gain >= 0 ? '+' : ''}${gain.toLocaleString('en-US')})`);
  expect(md).toMatch(/Net worth:\n\n```\n[\s\S]*tick \d+ +tick \d+\n```/);
  // get_map answers with a line per system: folded under its first line.
  expect(md).toMatch(/<details><summary>Galaxy map \(\d+ systems\):? \(\d+ lines\)<\/summary>/);
  // Short results stay open.
  expect(md).toMatch(/✓ \*\*spacemolt\*\* result\n\n```[^\n]*\n(Mined|Arrived|Docked|Undocked)/);
}, 60_000);
