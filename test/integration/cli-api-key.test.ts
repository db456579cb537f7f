// The whole program logging in with only an API key against a separate `skipper serve` over HTTP (issue 45): autoplay
// on both faces; the key kept out of the terminal, the log file, the stored messages, `export` and `--capture` even
// when another player says it in chat; a wrong key ends with one line and exit code 1; an auth outage
// (serve --auth-outage) is said and waited out, and play goes on.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it, type TestContext } from 'vitest';
import { openStore } from '../../internal/store/index.js';
import { runCli, tempHomes, type CliRun } from '../fakes/cli-process.js';

const newHome = tempHomes();
const KEY = 'mmk_cli0key0does0not0leak0000000001';
/** Long enough that a loaded machine still starts the captain inside the outage (it starts with the server). */
const OUTAGE_S = 15;

interface Served {
  server: CliRun;
  v2Url: string;
  v1Url: string;
  client: Client;
}

/** `skipper serve` with a fixed key and code (and `extra` flags), stopped when the test ends. */
async function start(context: TestContext, extra: string[]): Promise<{ server: CliRun; v2Url: string }> {
  const server = runCli(
    ['serve', '--port', '0', '--tick-ms', '100', '--api-key', KEY, '--registration-code', 'cli-code', ...extra],
    { home: newHome() },
  );
  context.onTestFinished(async () => {
    server.kill('SIGINT');
    await server.exited;
  });
  const [, v2Url] = await server.waitFor(/serving MCP at (http:\/\/\S+\/mcp\/v2)/);
  return { server, v2Url: v2Url! };
}

/** `skipper serve` with Nova and Chatter registered on it by another MCP client. */
async function serve(context: TestContext, extra: string[] = []): Promise<Served> {
  const { server, v2Url } = await start(context, extra);
  const client = new Client({ name: 'registrar', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(v2Url)));
  context.onTestFinished(() => client.close());
  for (const username of ['Nova', 'Chatter'])
    await client.callTool({
      name: 'spacemolt_auth',
      arguments: { action: 'register', username, empire: 'solarian', registration_code: 'cli-code' },
    });
  return { server, v2Url, v1Url: v2Url.replace(/\/v2$/, ''), client };
}

/** A world file with Nova in it, served again with its auth down for `seconds` from start (as after a restart). */
async function serveWithOutage(context: TestContext, seconds: number): Promise<string> {
  const world = join(newHome(), 'world.db');
  const first = await serve(context, ['--world-db', world]);
  await first.client.close();
  first.server.kill('SIGINT');
  await first.server.exited;
  return (await start(context, ['--world-db', world, '--auth-outage', String(seconds)])).v2Url;
}

const jsonEvents = (stdout: string): Array<Record<string, unknown>> =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe.concurrent('logging in with only an API key', () => {
  it('autoplays on /mcp/v2; the key never reaches stdout, the log, stored messages, export or capture', async (context) => {
    const { v2Url, client } = await serve(context);
    const home = newHome();
    const capture = join(home, 'capture');
    const cli = runCli(
      ['--game', v2Url, '--username', 'Nova', '-s', 'keyrun', '--autoplay', '--max-ticks', '30', '--capture', capture],
      { home, env: { SKIPPER_GAME_API_KEY: KEY } },
    );
    await cli.waitFor(/autopilot/);
    // Chatter (logged in by password; still in Sol beside Nova) says the key where the captain reads it.
    const chatter = await client.callTool({ name: 'spacemolt', arguments: { action: 'get_status' } });
    expect((chatter as { content: Array<{ text: string }> }).content[0]?.text).toContain('Chatter');
    await client.callTool({
      name: 'spacemolt_social',
      arguments: { action: 'chat', target: 'system', content: `psst, the key is ${KEY}` },
    });
    const { code } = await cli.exited;
    expect(code, cli.stderr()).toBe(0);

    const store = await openStore({ path: join(home, 'skipper.db') });
    const session = await store.findSession('keyrun');
    expect(session?.username).toBe('Nova');
    const stored = JSON.stringify(await store.messages(session!.id));
    await store.close();
    const exported = runCli(['export', 'keyrun', '--format', 'jsonl'], { home, env: {} });
    exported.child.stdin.end();
    expect((await exported.exited).code).toBe(0);
    const log = readFileSync(join(home, 'logs', 'skipper.log'), 'utf8');
    const captured = readdirSync(capture).map((file) => readFileSync(join(capture, file), 'utf8'));
    expect(captured.length).toBeGreaterThan(0);
    for (const [where, text] of Object.entries({
      capture: captured.join('\n'),
      stdout: cli.stdout(),
      stderr: cli.stderr(),
      log,
      stored,
      export: exported.stdout(),
    }))
      expect(text, where).not.toContain(KEY);
    // The chat did reach the captain: it was stored, with the key hidden.
    expect(stored).toMatch(/psst, the key is \[(saved|redacted)\]/);
  }, 60_000);

  it('autoplays on the flat /mcp face with --api-key, the flag as secret as the variable', async (context) => {
    const { v1Url } = await serve(context);
    const home = newHome();
    const cli = runCli(
      ['--game', v1Url, '--username', 'nova', '--api-key', KEY, '--autoplay', '--max-ticks', '20', '--json'],
      { home },
    );
    const { code } = await cli.exited;
    expect(code, cli.stderr()).toBe(0);
    const end = jsonEvents(cli.stdout()).find((event) => event.type === 'autoplay-end');
    expect(end?.stop_reason).toMatchObject({
      code: 'max_ticks',
      limit: 20,
      text: expect.stringMatching(/max-ticks 20/),
    });
    expect(Number(end?.actions)).toBeGreaterThan(0);
    expect(cli.stdout()).not.toContain(KEY);
    expect(readFileSync(join(home, 'logs', 'skipper.log'), 'utf8')).not.toContain(KEY);
  }, 60_000);

  it('a wrong key: one line that says what to do, exit code 1, nothing played', async (context) => {
    const { v2Url } = await serve(context);
    const cli = runCli(['--game', v2Url, '--autoplay', '--max-ticks', '5'], {
      home: newHome(),
      env: { SKIPPER_GAME_API_KEY: 'mmk_not_the_key_of_this_server_000' },
    });
    const { code } = await cli.exited;
    expect(code).toBe(1);
    const lines = cli.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^skipper: the game refused the API key \(HTTP 401: .*\)\. Check SKIPPER_GAME_API_KEY \(or --api-key\): copy the key again/,
    );
    expect(cli.stderr()).not.toContain('mmk_not_the_key');
  }, 60_000);

  it('an API key on the embedded game is a usage error (exit 2) that says where keys work', async () => {
    const cli = runCli(['--autoplay', '--max-ticks', '1'], { home: newHome(), env: { SKIPPER_GAME_API_KEY: KEY } });
    const { code } = await cli.exited;
    expect(code).toBe(2);
    expect(cli.stderr()).toMatch(/needs a game reached over HTTP/);
    expect(cli.stderr()).not.toContain(KEY);
  }, 60_000);

  it("the game's auth down at start: said, waited out on its Retry-After, then play goes on", async (context) => {
    const v2Url = await serveWithOutage(context, OUTAGE_S);
    const cli = runCli(['--game', v2Url, '--autoplay', '--max-ticks', '10', '--json'], {
      home: newHome(),
      env: { SKIPPER_GAME_API_KEY: KEY, SKIPPER_USERNAME: 'Nova' },
    });
    const { code } = await cli.exited;
    expect(code, cli.stderr()).toBe(0);
    const events = jsonEvents(cli.stdout());
    const waits = events.filter((event) => event.type === 'game-wait');
    expect(waits.length).toBeGreaterThan(0);
    for (const wait of waits) expect(wait).toMatchObject({ reason: 'auth_unavailable' });
    expect(Number(waits[0]?.wait_ms)).toBeGreaterThan(0);
    expect(Number(waits[0]?.wait_ms)).toBeLessThanOrEqual(OUTAGE_S * 1000);
    const end = events.find((event) => event.type === 'autoplay-end');
    expect(Number(end?.actions)).toBeGreaterThan(0);
  }, 60_000);

  it("on a terminal the outage is one line saying the game's auth is down and when it retries", async (context) => {
    const v2Url = await serveWithOutage(context, OUTAGE_S);
    const cli = runCli(['--game', v2Url, '--username', 'Nova', '--autoplay', '--max-ticks', '5'], {
      home: newHome(),
      env: { SKIPPER_GAME_API_KEY: KEY },
    });
    const { code } = await cli.exited;
    expect(code, cli.stderr()).toBe(0);
    const said = /^ {2}… the game's auth is down \(HTTP 503\): retrying in (\d+) s$/m.exec(cli.stdout());
    expect(said, cli.stdout()).not.toBeNull();
    expect(Number(said?.[1])).toBeLessThanOrEqual(OUTAGE_S);
  }, 60_000);
});
