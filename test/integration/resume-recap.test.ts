// Resuming a session prints a short recap of where the captain left off: the last turn, its closing words and the
// last known state.
import { expect, it } from 'vitest';
import { runCli, tempHomes } from '../fakes/cli-process.js';

const newHome = tempHomes();

it('a resumed session opens with where the captain left off', async () => {
  const home = newHome();
  const first = runCli(['--autoplay', '--max-turns', '2', '--tick-ms', '0', '-s', 'recap'], { home });
  expect((await first.exited).code, first.stderr()).toBe(0);
  const again = runCli(['-s', 'recap', '--autoplay', '--max-turns', '1', '--tick-ms', '0'], { home });
  expect((await again.exited).code, again.stderr()).toBe(0);
  const out = again.stdout();
  expect(out).toMatch(/session recap \(resumed\)/);
  expect(out).toMatch(/where you left off: turn 2 \(answered\) — "[^"]+"/);
  expect(out).toMatch(/last known: .*\d+ cr/);
  // The recap comes before the resumed run's first turn.
  expect(out.indexOf('where you left off')).toBeLessThan(out.indexOf('── turn 3'));
}, 60_000);
