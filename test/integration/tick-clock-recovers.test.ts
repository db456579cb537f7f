// A tick clock that recovers (issue 48): a `skipper serve` whose /health fails the first reads (a busy machine, fifty
// captains starting at once) must not leave the run on an estimated 10 s tick. `--max-ticks` then counts the game's
// own ticks: 30 of them on 250 ms ticks take seconds, where the old estimate took five minutes.
import { afterAll, describe, expect, it } from 'vitest';
import { jsonEventsOf, makeHome, removeHome, runCli } from '../fakes/cli-process.js';
import { startRecordingProxy } from '../fakes/recording-proxy.js';

const home = makeHome();
afterAll(() => removeHome(home));

describe('a tick clock that recovers', () => {
  it('--max-ticks counts the game’s ticks when the first /health reads fail', async () => {
    const server = runCli(['serve', '--port', '0', '--tick-ms', '250'], { home });
    try {
      const [, url, registrationCode] = await server.waitFor(
        / --game (http:\/\/\S+\/mcp\/v2) --registration-code (\S+)/,
      );
      const target = new URL(url!);
      // More failures than the first read's retries: the run starts with the tick unknown and reads it later.
      const proxy = await startRecordingProxy(target.origin, { failHealthReads: 7 });
      const serverTick = async (): Promise<number> =>
        ((await (await fetch(new URL('/health', target))).json()) as { tick: number }).tick;
      try {
        const tickBefore = await serverTick();
        const cli = runCli(
          [
            '--game',
            `${proxy.url}${target.pathname}`,
            '--registration-code',
            registrationCode!,
            '--autoplay',
            '--max-ticks',
            '30',
            '--json',
          ],
          { home },
        );
        const { code } = await cli.exited;
        const tickAfter = await serverTick();
        expect(code, cli.stderr()).toBe(0);
        const end = jsonEventsOf(cli).find((event) => event.type === 'autoplay-end')!;
        expect(proxy.healthReads()).toBeGreaterThan(7);
        expect(end.stop_reason).toMatchObject({ code: 'max_ticks', limit: 30, text: 'reached --max-ticks 30' });
        expect(end.tick_source).toBe('server');
        // The game's ticks, counted from its own clock: at least the limit, never more than the server saw pass. (How
        // far past 30 depends on the machine: the end state is read after the last step, and two suites running at
        // once once stalled that read by 40 ticks of 250 ms — a bound on it would be a wall-clock bound.)
        expect(Number(end.ticks)).toBeGreaterThanOrEqual(30);
        expect(Number(end.ticks)).toBeLessThanOrEqual(tickAfter - tickBefore);
        // (The old estimated 10 s tick would have taken ~300 s: the test's own time limit fails it; no wall-clock bound.)
      } finally {
        await proxy.close();
      }
    } finally {
      server.kill('SIGINT');
      await server.exited;
    }
  }, 60_000);
});
