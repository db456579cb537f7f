// Never silent while connecting (issue 48): a game that takes the connection and never answers was 30 s and more of
// nothing on the screen before the error. After 10 s without an answer the run says so once — a line for people, a
// `game-wait` event (reason `connecting`) with --json; the connection's own error still ends the run when it gives up.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../fakes/cli-process.js';

let server: Server | undefined;
const runs: CliRun[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) run.kill('SIGKILL');
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** An HTTP server that reads every request and answers none. */
async function silentGame(): Promise<string> {
  server = createServer(() => undefined);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe('connecting to a game that never answers', () => {
  it('says it is still connecting after 10 s, as a line and as a game-wait event', async () => {
    const url = await silentGame();
    const plain = runCli(['--game', url, '--max-turns', '1', '--autoplay']);
    const json = runCli(['--game', url, '--json', '--max-turns', '1', '--autoplay']);
    runs.push(plain, json);
    const line = await plain.waitFor(/still connecting to the game at (\S+): no answer for (\d+) s/, {
      timeoutMs: 40_000,
    });
    expect(line[1]).toBe(url);
    expect(line[2]).toBe('10');
    const event = await json.waitFor(/^\{.*"type":"game-wait".*\}$/m, { timeoutMs: 40_000 });
    const { ts, ...fields } = JSON.parse(event[0]) as Record<string, unknown>;
    expect(typeof ts).toBe('string');
    expect(fields).toEqual({ type: 'game-wait', reason: 'connecting', waited_ms: 10_000 });
    expect(plain.stdout().match(/still connecting/g)).toHaveLength(1);
  }, 90_000);
});
