// Issue 48: one writer per game account, as there is one per session. Two sessions of one home against one
// `skipper serve`, with different names and no --username, each play an account of their own; with the same
// --username the second is refused (exit 1) before it sends the game anything, naming the session that plays it.
import { afterAll, describe, expect, it } from 'vitest';
import { makeHome, removeHome, runCli, type CliRun } from '../fakes/cli-process.js';

const home = makeHome();
afterAll(() => removeHome(home));

interface Player {
  username: string;
  actions: number;
}

function lines(cli: CliRun): Array<Record<string, unknown>> {
  return cli
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function players(url: string): Promise<Player[]> {
  return ((await (await fetch(new URL('/stats', url))).json()) as { players: Player[] }).players;
}

describe('one game account, one writer', () => {
  it('two new sessions without --username play two accounts; the same --username is refused before any game call', async () => {
    const server = runCli(['serve', '--port', '0', '--tick-ms', '50'], { home: makeHome() });
    try {
      const [, url, code] = await server.waitFor(/ --game (http:\/\/\S+\/mcp\/v2) --registration-code (\S+)/);
      const game = ['--game', url!, '--registration-code', code!];
      const play = (name: string, extra: string[]): CliRun =>
        runCli([...game, '-s', name, '--autoplay', ...extra, '--json'], { home });

      const [alpha, beta] = [play('alpha', ['--max-ticks', '30']), play('beta', ['--max-ticks', '30'])];
      const [alphaEnd, betaEnd] = await Promise.all([alpha.exited, beta.exited]);
      expect(alphaEnd.code, alpha.stderr()).toBe(0);
      expect(betaEnd.code, beta.stderr()).toBe(0);
      const played = await players(url!);
      expect(played).toHaveLength(2);
      expect(new Set(played.map((player) => player.username)).size).toBe(2);
      for (const player of played) expect(player.actions, player.username).toBeGreaterThan(0);

      const gamma = play('gamma', ['--username', 'nova', '--max-ticks', '2000']);
      try {
        await gamma.waitFor(/"type":"tool-result"/, { timeoutMs: 30_000 });
        const delta = play('delta', ['--username', 'nova', '--max-ticks', '10']);
        const deltaEnd = await delta.exited;
        expect(deltaEnd.code).toBe(1);
        expect(delta.stderr()).toMatch(/account nova .*session gamma \(pid \d+ on host /);
        // Refused before it opened the game: no tool call, no session stored, still one nova on the server.
        expect(lines(delta).filter((event) => String(event.type).startsWith('tool'))).toEqual([]);
        const novas = (await players(url!)).filter((player) => player.username.toLowerCase() === 'nova');
        expect(novas).toHaveLength(1);
        const listed = runCli(['sessions', '--json'], { home });
        await listed.exited;
        expect(listed.stdout()).not.toMatch(/"delta"/);
        expect(listed.stdout()).toMatch(/"gamma"/);
      } finally {
        gamma.kill('SIGINT');
        await gamma.exited;
      }
    } finally {
      server.kill('SIGINT');
      await server.exited;
    }
  }, 180_000);
});
