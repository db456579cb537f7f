// `skipper web` on a home with nothing in it yet (not even its folder): the bridge starts, then a captain plays in
// that home and the bridge lists it — start the bridge, then the fleet, is a natural order (issue 48).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempHomes } from '../fakes/cli-process.js';

const newHome = tempHomes();

describe('skipper web on an empty home', () => {
  it('starts, then shows a captain that starts playing in that home', async () => {
    const home = join(newHome(), 'not-made-yet');
    const web = runCli(['web', '--port', '0', '--poll-ms', '100'], { home });
    try {
      const [, base] = await web.waitFor(/Skipper bridge on (http:\/\/\S+?)\/? \(/, { timeoutMs: 20_000 });
      expect(existsSync(join(home, 'skipper.db'))).toBe(true);
      const before = (await (await fetch(`${base}/api/state`)).json()) as { captains: unknown[] };
      expect(before.captains).toEqual([]);
      const play = runCli(['--tick-ms', '0', '-s', 'first-captain', '--autoplay', '--max-turns', '1'], { home });
      expect((await play.exited).code, play.stderr()).toBe(0);
      await expect
        .poll(
          async () => {
            const state = (await (await fetch(`${base}/api/state`)).json()) as { captains: Array<{ name: string }> };
            return state.captains.map((captain) => captain.name);
          },
          { timeout: 10_000, interval: 100 },
        )
        .toEqual(['first-captain']);
      const messages = await fetch(`${base}/api/sessions/first-captain/messages`);
      expect(messages.status).toBe(200);
    } finally {
      web.kill('SIGINT');
    }
    expect((await web.exited).code).toBe(0);
  });
});
