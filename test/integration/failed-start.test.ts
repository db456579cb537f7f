// Failed starts are not played sessions (issue 29): a start refused by the model endpoint (the real HTTP fake of the
// OpenAI API answering 401, or an endpoint that is down) before the first model reply is stored as failed and listed
// apart — `skipper sessions` counts it in one line, `--all` lists it under its own heading, `--json` leaves it out
// unless `--all` (then marked `failed_start: true`) — while a session that played is listed as before.
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import { runCli, tempHomes } from '../fakes/cli-process.js';

const newHome = tempHomes();
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function run(args: string[], home: string, env: Record<string, string> = {}) {
  const cli = runCli(args, { home, env });
  const { code } = await cli.exited;
  expect(cli.stderr()).not.toMatch(/\n\s+at /); // no stack trace
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

/** A port nothing listens on: taken, then freed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('failed starts', () => {
  it('a 401 on the first turn is listed apart from the sessions that played', async () => {
    const fake = await startFakeOpenAI({ apiKey: 'the-right-key', script: [{ content: 'Aye, captain.' }] });
    cleanups.push(() => fake.close());
    const home = newHome();
    const model = ['--model', 'custom/test-model', '--base-url', fake.url, '--api-key-env', 'TEST_KEY'];
    const refused = await run([...model, '--autoplay', '--max-turns', '1', '-s', 'refused-run'], home, {
      TEST_KEY: 'a-wrong-key',
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/refused the request \(HTTP 401\)/);
    // A builtin run plays: it is a session.
    const played = await run(['--autoplay', '--max-turns', '1', '--tick-ms', '0', '-s', 'played-run'], home);
    expect(played.code).toBe(0);

    const table = await run(['sessions'], home);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^NAME +GAME +MODEL +TURNS/m);
    expect(table.stdout).toMatch(/^played-run /m);
    expect(table.stdout).not.toMatch(/^refused-run /m);
    expect(table.stdout).toContain('1 failed start (no model reply) not listed');
    expect(table.stdout).toContain('sessions --all');

    const all = await run(['sessions', '--all'], home);
    const heading = all.stdout.indexOf('Failed starts');
    expect(heading).toBeGreaterThan(all.stdout.indexOf('played-run'));
    expect(all.stdout.slice(heading)).toMatch(/^refused-run +embedded +custom\/test-model/m);

    const json = (await run(['sessions', '--json'], home)).stdout.trim().split('\n');
    expect(json.map((line) => (JSON.parse(line) as { name: string }).name)).toEqual(['played-run']);
    const allJson = (await run(['sessions', '--json', '--all'], home)).stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { name: string; failed_start: boolean });
    expect(allJson.map((row) => [row.name, row.failed_start])).toEqual([
      ['played-run', false],
      ['refused-run', true],
    ]);
    // The fake was asked once and refused: the model never replied.
    expect(fake.chatRequests.length).toBeGreaterThan(0);
    expect(fake.exhausted).toBe(false);
  }, 60_000);

  it('an endpoint that is down before the first reply is a failed start too', async () => {
    const home = newHome();
    const port = await closedPort();
    const down = await run(
      ['--model', 'custom/test-model', '--base-url', `http://127.0.0.1:${port}/v1`, '--autoplay', '--max-turns', '1'],
      home,
    );
    expect(down.code).toBe(1);
    const table = await run(['sessions'], home);
    expect(table.stdout).toContain('No sessions yet');
    expect(table.stdout).toContain('1 failed start (no model reply) not listed');
  }, 60_000);
});
