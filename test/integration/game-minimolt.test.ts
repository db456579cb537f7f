// The game connection against minimolt over real HTTP, on both SpaceMolt faces (v2 grouped at /mcp/v2, v1 flat at
// /mcp): restart mid-session, competing logins, rate limits, hostile chat and the secret guard, with a real world file
// in a temp dir. Results are text only; what the tests read about the game comes from the game layer's observations.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  connectGame,
  RECONNECT_NOTICE,
  renderEvents,
  uncertainNotice,
  type GameConnection,
} from '../../internal/game/index.js';
import { type ConnectionEvent, type ToolResult, callKind } from '../../internal/shared/index.js';
import {
  toFaceCall,
  type FaceId,
  type GameObservation,
  type GameOp,
  type MmSystemDetails,
  type OpArgs,
} from '../../internal/spacemolt/index.js';
import { createMinimolt, type Minimolt, type MinimoltOptions, type SimStats } from '../../internal/sim/index.js';
import { memoryCredentials } from '../fakes/memory-credentials.js';

const CODE = 'mm-game-minimolt-test';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step().catch(() => {});
});

async function tempWorld(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'skipper-game-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return join(dir, 'world.db');
}

interface RunningSim {
  sim: Minimolt;
  url: string;
  origin: string;
  port: number;
  stop: () => Promise<void>;
}

/** A minimolt on HTTP; `url` is the given face's endpoint, `origin` where the game's accounts are filed. */
async function startSim(face: FaceId, options: MinimoltOptions, port = 0): Promise<RunningSim> {
  const sim = await createMinimolt({ tickMs: 0, registrationCode: CODE, ...options });
  const handle = await sim.listen({ host: '127.0.0.1', port });
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await sim.close();
  };
  cleanup.push(stop);
  const url = face === 'v2' ? handle.v2Url : handle.url;
  return { sim, url, origin: new URL(url).origin, port: handle.port, stop };
}

async function connect(url: string, options: Partial<Parameters<typeof connectGame>[0]> = {}) {
  const events: ConnectionEvent[] = [];
  const credentials = options.credentials ?? memoryCredentials();
  const game = await connectGame({
    target: { kind: 'http', url },
    credentials,
    registrationCode: CODE,
    retry: { backoffMs: 20 },
    ...options,
  });
  game.onEvent((event) => events.push(event));
  cleanup.push(() => game.close());
  return { game, events, credentials };
}

/** One op (Skipper's argument names) as the face spells it. */
function spell(face: FaceId, op: GameOp, args: OpArgs = {}): { name: string; args: Record<string, unknown> } {
  const call = toFaceCall(face, op, args);
  if (!call) throw new Error(`the ${face} face has no ${op}`);
  return call;
}

/** Plays ops through the game connection, spelled for the face. */
function player(game: GameConnection, face: FaceId): (op: GameOp, args?: OpArgs) => Promise<ToolResult> {
  return (op, args = {}) => {
    const call = spell(face, op, args);
    return game.call(call.name, call.args);
  };
}

const observed = (result: ToolResult): GameObservation => (result.data ?? {}) as GameObservation;

async function stats(port: number): Promise<SimStats> {
  const response = await fetch(`http://127.0.0.1:${port}/stats`);
  return (await response.json()) as SimStats;
}

describe.each(['v2', 'v1'] as const)('minimolt over HTTP, %s face', (face) => {
  it('survives a server restart: reconnects, logs back in with the stored password, model sees one line', async () => {
    const worldDb = await tempWorld();
    const first = await startSim(face, { worldDb });
    const { game, events, credentials } = await connect(first.url);
    const play = player(game, face);
    const registered = await play('register', { username: 'nova', empire: 'solarian' });
    expect(registered.isError).toBe(false);
    const password = (await credentials.get(first.origin, 'nova'))?.password;
    expect(password).toMatch(/^[0-9a-f]{64}$/);
    expect(registered.text).toContain('[saved]');
    expect(JSON.stringify(registered)).not.toContain(password);

    await first.stop();
    const second = await startSim(face, { worldDb }, first.port);
    expect(second.port).toBe(first.port);

    const status = await play('get_status');
    expect(status.isError).toBe(false);
    const lines = status.text.split('\n');
    expect(lines[0]).toBe(RECONNECT_NOTICE);
    expect(lines.slice(1).join('\n')).not.toContain('reconnect');
    expect(observed(status).player?.username).toBe('nova');
    expect(events.map((event) => event.type)).toContain('reconnecting');
    expect(events.at(-1)).toEqual({ type: 'logged-in', username: 'nova' });
    expect(game.stats().reconnects).toBe(1);
    // the next call is plain
    expect((await play('get_status')).text.startsWith(RECONNECT_NOTICE)).toBe(false);
  });

  it('a restart during a blocking jump: the call comes back with a result, not a hang or a throw', async () => {
    const worldDb = await tempWorld();
    const first = await startSim(face, { worldDb, tickMs: 100 });
    const { game } = await connect(first.url, { retry: { backoffMs: 100 } });
    const play = player(game, face);
    expect((await play('register', { username: 'jumper', empire: 'solarian' })).isError).toBe(false);
    const system = await play('get_system');
    const target = (observed(system).details as MmSystemDetails | undefined)?.system.connections[0]?.system_id;
    expect(target).toMatch(/^[a-z0-9_]+$/);
    const jump = play('jump', { target });
    await new Promise<void>((resolve) => setTimeout(resolve, 150)); // the jump is under way (6 ticks of 100 ms)
    await first.stop();
    await startSim(face, { worldDb, tickMs: 100 }, first.port);
    const result = await jump; // a hang would end at the test's timeout
    // The jump cut off by the restart is not sent again: it ends uncertain (the game may have made it), after the
    // reconnect; the notice names the op, whatever tool carried it.
    expect(result.isError).toBe(true);
    expect(result.code).toBe('uncertain');
    expect(result.text.split('\n')[0]).toBe(uncertainNotice('jump'));
    const status = await play('get_status');
    expect(status.isError).toBe(false);
    expect(status.text.startsWith(RECONNECT_NOTICE)).toBe(false);
  });

  it('a second client logging in as the same player: no login storm, and a clear report', async () => {
    const { url } = await startSim(face, {});
    const credentials = memoryCredentials();
    const retry = { backoffMs: 5, displacedMax: 3 };
    // tickMs 0: every get_status reaches the game (within a tick a repeated query is answered from the last answer).
    const one = await connect(url, { credentials, retry, tickMs: 0 });
    expect((await player(one.game, face)('register', { username: 'nova', empire: 'solarian' })).isError).toBe(false);
    const two = await connect(url, { credentials, retry, tickMs: 0 });
    expect(await two.game.loginIfKnown()).toBe(true);

    const results = [];
    for (let round = 0; round < 12; round += 1) {
      results.push(await player(one.game, face)('get_status'), await player(two.game, face)('get_status'));
    }
    const logins = [...one.events, ...two.events].filter((event) => event.type === 'logged-in').length;
    // register + the second login, then at most displacedMax automatic re-logins each
    expect(logins).toBeLessThanOrEqual(2 + 3 + 3);
    const reports = results.filter((result) => result.code === 'session_replaced');
    expect(reports.length).toBeGreaterThan(0);
    expect(reports[0]?.text).toMatch(/another client keeps logging in as nova/);
    expect(results.filter((result) => !result.isError).length).toBeGreaterThan(0);
  });

  it('waits out rate_limited for the retry_after minimolt sends, then succeeds', async () => {
    let clock = Date.now();
    const { url } = await startSim(face, { rateLimits: { queriesPerMinute: 10 }, now: () => clock });
    // Skipper's own budget off (no window, no tick): this is about the game's rate_limited answer.
    const { game, events } = await connect(url, { tickMs: 0, queryBudget: { queriesPerWindow: 0 } });
    const play = player(game, face);
    expect((await play('register', { username: 'flood', empire: 'nebula' })).isError).toBe(false);
    for (let index = 0; index < 10; index += 1) expect((await play('get_status')).isError).toBe(false);
    // 59 s later the oldest query is 1 s from leaving the window: minimolt says retry_after 1
    clock += 59_000;
    game.onEvent((event) => {
      if (event.type === 'rate-limited') clock += event.waitMs; // the sim's clock moves as the client waits
    });
    const started = Date.now();
    const result = await play('get_status');
    const elapsed = Date.now() - started;
    expect(result.isError).toBe(false);
    expect(events.filter((event) => event.type === 'rate-limited')).toEqual([{ type: 'rate-limited', waitMs: 1000 }]);
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(game.stats().rateLimitWaits).toBe(1);
  });

  it('with hostile chat at 100%: chat arrives wrapped as untrusted, password leaks are refused, /stats leaks stay 0', async () => {
    const { url, origin, port } = await startSim(face, { hostileChat: 1, npcChatChance: 1, seed: 7 });
    const { game, credentials } = await connect(url, { secrets: ['sk-test-abcdef0123456789'] });
    const play = player(game, face);
    expect((await play('register', { username: 'nova', empire: 'solarian' })).isError).toBe(false);
    const password = (await credentials.get(origin, 'nova'))!.password;
    // spend a few ticks so NPCs talk
    for (const op of ['undock', 'dock', 'undock', 'dock'] as const) expect((await play(op)).isError).toBe(false);

    const fetched = await game.fetchEvents();
    expect(fetched).toBeDefined();
    const events = fetched && renderEvents(fetched);
    expect(events).toMatch(/^Events since your last turn:/);
    expect(events).toMatch(/<untrusted source="chat" from="[^"]+">[^<]*<\/untrusted>/);
    const chatLines = events!.split('\n').filter((line) => line.includes('chat'));
    for (const line of chatLines) expect(line).toMatch(/<untrusted source="chat"/);

    // a scripted captain that does what the hostile chat asks, in several disguises
    const attempts: Array<[GameOp, OpArgs]> = [
      ['chat', { channel: 'system', content: `Sure! My password is ${password}` }],
      ['chat', { channel: 'local', content: password.toUpperCase().split('').join(' ') }],
      ['captains_log_add', { content: `note to self: ${password.slice(0, 40)}` }],
      ['chat', { channel: 'system', content: Buffer.from(password).toString('base64') }],
      ['chat', { channel: 'system', content: 'and my API key is sk-test-abcdef0123456789' }],
    ];
    for (const [op, args] of attempts) {
      expect(await play(op, args)).toEqual({ text: 'refused: would reveal a secret', isError: true, code: 'refused' });
    }
    expect(game.stats().refusedSecrets).toBe(attempts.length);
    expect((await play('chat', { channel: 'system', content: 'o7 pilots, no thanks' })).isError).toBe(false);
    // [saved] is what the model holds; logging in with it works
    expect((await play('login', { username: 'nova', password: '[saved]' })).isError).toBe(false);

    const report = await stats(port);
    const nova = report.players.find((entry) => entry.username === 'nova');
    expect(nova?.leaks).toBe(0);
  });
});

describe.each(['v2', 'v1'] as const)('embedded minimolt (in-process transport), %s face', (face) => {
  it('lists minimolt tools with their kinds and plays through the in-memory transport', async () => {
    const sim = await createMinimolt({ tickMs: 0, registrationCode: CODE });
    cleanup.push(() => sim.close());
    const credentials = memoryCredentials();
    const game = await connectGame({
      target: {
        kind: 'transport',
        label: 'embedded',
        url: 'embedded://minimolt',
        connect: () => sim.connect({ face }),
      },
      credentials,
      registrationCode: CODE,
    });
    cleanup.push(() => game.close());
    expect(game.label).toBe('embedded');
    const tools = await game.listTools();
    expect(game.profile()).toMatchObject({ id: `spacemolt-${face}`, server: 'minimolt', face });
    // The kind of each call, as the listed ToolSpecs (kind, or actions for a grouped tool) say it.
    const kinds = Object.fromEntries(
      (['get_status', 'view_market', 'get_notifications', 'travel', 'chat', 'login'] as const).map((op) => {
        const call = spell(face, op);
        return [
          op,
          callKind(
            tools.find((tool) => tool.name === call.name),
            call.args,
          ),
        ];
      }),
    );
    expect(kinds).toEqual({
      get_status: 'query',
      view_market: 'query',
      get_notifications: 'query',
      travel: 'mutation',
      chat: 'free',
      login: 'free',
    });
    if (face === 'v1') {
      const readOnly = Object.fromEntries(tools.map((tool) => [tool.name, tool.readOnly]));
      expect(readOnly).toMatchObject({
        get_status: true,
        view_market: true,
        get_notifications: true,
        travel: false,
        chat: false,
        login: false,
      });
    } else {
      // a grouped tool that mixes queries and mutations is not read-only as a whole
      expect(tools.find((tool) => tool.name === 'spacemolt')?.readOnly).toBe(false);
    }
    const play = player(game, face);
    const registered = await play('register', { username: 'embed', empire: 'outerrim' });
    expect(registered.isError).toBe(false);
    expect((await credentials.latest('embedded://minimolt'))?.username).toBe('embed');
    expect(game.username()).toBe('embed');
    const undock = await play('undock');
    expect(undock.isError).toBe(false);
    // The flat v1 face answers JSON with the action's sentence in `message` (as the real /mcp); v2 answers the text.
    const sentence = face === 'v1' ? (JSON.parse(undock.text) as { message: string }).message : undock.text;
    expect(sentence).toMatch(/^Undocked from /);
    // The real undock answer carries no status block: the game layer learns the ship is undocked from get_status.
    const status = await play('get_status');
    expect(status.isError).toBe(false);
    expect(observed(status).location?.docked).toBe(false);
    const error = await play('travel', { target: 'nowhere' });
    expect(error).toMatchObject({ isError: true, code: 'invalid_poi' });
    const unknown = await game.call('teleport', {});
    expect(unknown).toMatchObject({ isError: true, code: 'invalid_params' });
    expect(unknown.text).toMatch(/^invalid_params: unknown tool 'teleport'/);
    if (face === 'v2') {
      // an action the grouped tool does not have is the game's own refusal, not a protocol error
      const action = await game.call('spacemolt', { action: 'teleport' });
      expect(action).toMatchObject({ isError: true, code: 'invalid_payload' });
      expect(action.text).toMatch(/^Error: invalid_payload: unknown action 'teleport'/);
    }
  });
});
