// A tick clock that recovers (issue 48): a `skipper serve` whose /health fails the first reads (a busy machine, fifty
// captains starting at once) must not leave the run on an estimated 10 s tick. `--max-ticks` then counts the game's
// own ticks: 30 of them on 250 ms ticks take seconds, where the old estimate took five minutes.
import { createServer, request as httpRequest } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { closeLocalServer, listenLocally } from '../fakes/local-server.js';
import { makeHome, removeHome, runCli } from '../fakes/cli-process.js';

const home = makeHome();
afterAll(() => removeHome(home));

/** Forwards everything to `target`, except the first `failures` reads of /health, answered 503. */
async function flakyHealthProxy(
  target: URL,
  failures: number,
): Promise<{ url: string; healthReads: () => number; close(): Promise<void> }> {
  let reads = 0;
  const server = createServer((req, res) => {
    if (req.url === '/health') {
      reads += 1;
      if (reads <= failures) {
        res.writeHead(503, { 'content-type': 'text/plain' }).end('busy');
        return;
      }
    }
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  const port = await listenLocally(server);
  return { url: `http://127.0.0.1:${port}`, healthReads: () => reads, close: () => closeLocalServer(server) };
}

describe('a tick clock that recovers', () => {
  it('--max-ticks counts the game’s ticks when the first /health reads fail', async () => {
    const server = runCli(['serve', '--port', '0', '--tick-ms', '250'], { home });
    try {
      const [, url, registrationCode] = await server.waitFor(
        / --game (http:\/\/\S+\/mcp\/v2) --registration-code (\S+)/,
      );
      const target = new URL(url!);
      // More failures than the first read's retries: the run starts with the tick unknown and reads it later.
      const proxy = await flakyHealthProxy(target, 7);
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
        const end = cli
          .stdout()
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .find((event) => event.type === 'autoplay-end')!;
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
