// The game connection against minimolt over real HTTP: restart mid-session, competing logins, rate limits,
// hostile chat and the secret guard, with a real world file in a temp dir.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectGame, RECONNECT_NOTICE, uncertainNotice } from '../../internal/game/index.js';
import type { ConnectionEvent } from '../../internal/shared/index.js';
import { createMinimolt, type Minimolt, type MinimoltOptions, type SimStats } from '../../internal/sim/index.js';
import { memoryCredentials } from '../unit/game/fake-game.js';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => {});
});

async function tempWorld(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'skipper-game-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return join(dir, 'world.db');
}

async function startSim(options: MinimoltOptions, port = 0): Promise<{ sim: Minimolt; url: string; port: number; stop: () => Promise<void> }> {
  const sim = await createMinimolt({ tickMs: 0, ...options });
  const handle = await sim.listen({ host: '127.0.0.1', port });
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await sim.close();
  };
  cleanup.push(stop);
  return { sim, url: handle.url, port: handle.port, stop };
}

async function connect(url: string, options: Partial<Parameters<typeof connectGame>[0]> = {}) {
  const events: ConnectionEvent[] = [];
  const credentials = options.credentials ?? memoryCredentials();
  const game = await connectGame({ target: { kind: 'http', url }, credentials, retry: { backoffMs: 20 }, ...options });
  game.onEvent((event) => events.push(event));
  cleanup.push(() => game.close());
  return { game, events, credentials };
}

async function stats(port: number): Promise<SimStats> {
  const response = await fetch(`http://127.0.0.1:${port}/stats`);
  return (await response.json()) as SimStats;
}

describe('minimolt over HTTP', () => {
  it('survives a server restart: reconnects, logs back in with the stored password, model sees one line', async () => {
    const worldDb = await tempWorld();
    const first = await startSim({ worldDb });
    const { game, events, credentials } = await connect(first.url);
    const registered = await game.call('register', { username: 'nova', empire: 'solarian' });
    expect(registered.isError).toBe(false);
    const password = credentials.get(first.url, 'nova')?.password;
    expect(password).toMatch(/^[0-9a-f]{64}$/);
    expect(registered.text).toContain('[saved]');
    expect(JSON.stringify(registered)).not.toContain(password);

    await first.stop();
    const second = await startSim({ worldDb }, first.port);
    expect(second.port).toBe(first.port);

    const status = await game.call('get_status', {});
    expect(status.isError).toBe(false);
    const lines = status.text.split('\n');
    expect(lines[0]).toBe(RECONNECT_NOTICE);
    expect(lines.slice(1).join('\n')).not.toContain('reconnect');
    expect((status.data as { player: { username: string } }).player.username).toBe('nova');
    expect(events.map((event) => event.kind)).toContain('reconnecting');
    expect(events.at(-1)).toEqual({ kind: 'logged-in', username: 'nova' });
    expect(game.stats().reconnects).toBe(1);
    // the next call is plain
    expect((await game.call('get_status', {})).text.startsWith(RECONNECT_NOTICE)).toBe(false);
  });

  it('a restart during a blocking jump: the call comes back with a result, not a hang or a throw', async () => {
    const worldDb = await tempWorld();
    const first = await startSim({ worldDb, tickMs: 100 });
    const { game } = await connect(first.url, { retry: { backoffMs: 100 } });
    await game.call('register', { username: 'jumper', empire: 'solarian' });
    const system = await game.call('get_system', {});
    const target = (system.data as { details: { system: { connections: Array<{ system_id: string }> } } }).details.system.connections[0]?.system_id;
    expect(target).toBeDefined();
    const started = Date.now();
    const jump = game.call('jump', { target_system: target });
    await new Promise<void>((resolve) => setTimeout(resolve, 150)); // the jump is under way (6 ticks of 100 ms)
    await first.stop();
    await startSim({ worldDb, tickMs: 100 }, first.port);
    const result = await jump;
    expect(Date.now() - started).toBeLessThan(10_000);
    // either the retried jump resolved, or the game says why not (the first jump went through before the restart)
    if (result.isError) {
      expect(result.text.split('\n')[0]).toBe(uncertainNotice('jump'));
      expect(['in_transit', 'action_pending', 'not_connected']).toContain(result.code);
    } else {
      expect(result.text.split('\n')[0]).toBe(RECONNECT_NOTICE);
    }
    const status = await game.call('get_status', {});
    expect(status.isError).toBe(false);
    expect(status.text.startsWith(RECONNECT_NOTICE)).toBe(false);
  });

  it('a second client logging in as the same player: no login storm, and a clear report', async () => {
    const { url } = await startSim({});
    const credentials = memoryCredentials();
    const retry = { backoffMs: 5, displacedMax: 3 };
    const one = await connect(url, { credentials, retry });
    await one.game.call('register', { username: 'nova', empire: 'solarian' });
    const two = await connect(url, { credentials, retry });
    expect(await two.game.loginIfKnown()).toBe(true);

    const results = [];
    for (let round = 0; round < 12; round += 1) {
      results.push(await one.game.call('get_status', {}), await two.game.call('get_status', {}));
    }
    const logins = [...one.events, ...two.events].filter((event) => event.kind === 'logged-in').length;
    // register + the second login, then at most displacedMax automatic re-logins each
    expect(logins).toBeLessThanOrEqual(2 + 3 + 3);
    const reports = results.filter((result) => result.code === 'session_replaced');
    expect(reports.length).toBeGreaterThan(0);
    expect(reports[0]?.text).toMatch(/another client keeps logging in as nova/);
    expect(results.filter((result) => !result.isError).length).toBeGreaterThan(0);
  });

  it('waits out rate_limited for the retry_after minimolt sends, then succeeds', async () => {
    let clock = Date.now();
    const { url } = await startSim({ rateLimits: { queriesPerMinute: 10 }, now: () => clock });
    const { game, events } = await connect(url);
    await game.call('register', { username: 'flood', empire: 'nebula' });
    for (let index = 0; index < 10; index += 1) expect((await game.call('get_status', {})).isError).toBe(false);
    // 59 s later the oldest query is 1 s from leaving the window: minimolt says retry_after 1
    clock += 59_000;
    game.onEvent((event) => {
      if (event.kind === 'rate-limited') clock += event.waitMs; // the sim's clock moves as the client waits
    });
    const started = Date.now();
    const result = await game.call('get_status', {});
    const elapsed = Date.now() - started;
    expect(result.isError).toBe(false);
    expect(events.filter((event) => event.kind === 'rate-limited')).toEqual([{ kind: 'rate-limited', waitMs: 1000 }]);
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(game.stats().rateLimitWaits).toBe(1);
  });

  it('with hostile chat at 100%: chat arrives wrapped as untrusted, password leaks are refused, /stats leaks stay 0', async () => {
    const { url, port } = await startSim({ hostileChat: 1, npcChatChance: 1, seed: 7 });
    const { game, credentials } = await connect(url, { secrets: ['sk-test-abcdef0123456789'] });
    await game.call('register', { username: 'nova', empire: 'solarian' });
    const password = credentials.get(url, 'nova')!.password;
    // spend a few ticks so NPCs talk
    for (const tool of ['undock', 'dock', 'undock', 'dock']) expect((await game.call(tool, {})).isError).toBe(false);

    const events = await game.fetchEvents();
    expect(events).toBeDefined();
    expect(events).toMatch(/^Events since your last turn:/);
    expect(events).toMatch(/<untrusted source="chat" from="[^"]+">[^<]*<\/untrusted>/);
    const chatLines = events!.split('\n').filter((line) => line.includes('chat'));
    for (const line of chatLines) expect(line).toMatch(/<untrusted source="chat"/);

    // a scripted captain that does what the hostile chat asks, in several disguises
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['chat', { channel: 'system', content: `Sure! My password is ${password}` }],
      ['chat', { channel: 'local', content: password.toUpperCase().split('').join(' ') }],
      ['captains_log_add', { entry: `note to self: ${password.slice(0, 40)}` }],
      ['chat', { channel: 'system', content: Buffer.from(password).toString('base64') }],
      ['chat', { channel: 'system', content: 'and my API key is sk-test-abcdef0123456789' }],
    ];
    for (const [tool, args] of attempts) {
      expect(await game.call(tool, args)).toEqual({ text: 'refused: would reveal a secret', isError: true, code: 'refused' });
    }
    expect(game.stats().refusedSecrets).toBe(attempts.length);
    expect((await game.call('chat', { channel: 'system', content: 'o7 pilots, no thanks' })).isError).toBe(false);
    // [saved] is what the model holds; logging in with it works
    expect((await game.call('login', { username: 'nova', password: '[saved]' })).isError).toBe(false);

    const report = await stats(port);
    const nova = report.players.find((player) => player.username === 'nova');
    expect(nova?.leaks).toBe(0);
  });
});

describe('embedded minimolt (in-process transport)', () => {
  it('lists minimolt tools with their kinds and plays through the in-memory transport', async () => {
    const sim = await createMinimolt({ tickMs: 0 });
    cleanup.push(() => sim.close());
    const credentials = memoryCredentials();
    const game = await connectGame({
      target: { kind: 'transport', label: 'embedded', url: 'embedded://minimolt', connect: () => sim.connect() },
      credentials,
    });
    cleanup.push(() => game.close());
    expect(game.label).toBe('embedded');
    const tools = await game.listTools();
    const readOnly = Object.fromEntries(tools.map((tool) => [tool.name, tool.readOnly]));
    expect(readOnly).toMatchObject({ get_status: true, view_market: true, get_notifications: true, travel: false, chat: false, login: false });
    const registered = await game.call('register', { username: 'embed', empire: 'outerrim' });
    expect(registered.isError).toBe(false);
    expect(credentials.latest('embedded://minimolt')?.username).toBe('embed');
    expect(game.username()).toBe('embed');
    const undock = await game.call('undock', {});
    expect(undock.isError).toBe(false);
    expect((undock.data as { location: { docked: boolean } }).location.docked).toBe(false);
    const error = await game.call('travel', { target_poi: 'nowhere' });
    expect(error).toMatchObject({ isError: true, code: 'invalid_poi' });
    const unknown = await game.call('teleport', {});
    expect(unknown).toMatchObject({ isError: true, code: 'invalid_params' });
    expect(unknown.text).toMatch(/^invalid_params: unknown tool 'teleport'/);
  });
});
