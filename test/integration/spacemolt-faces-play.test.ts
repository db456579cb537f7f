// Skipper plays minimolt's SpaceMolt faces — the flat v1 `/mcp` and the grouped v2 `/mcp/v2` — as it would play the
// real server: text results only, a registration code, no tick in any result. The built CLI plays a separate
// `skipper serve` through a recording proxy (so the test sees every tool call sent), with the built-in autopilot and
// with a scripted OpenAI-compatible model that decides each call from the result TEXT it was sent.
import { describe, expect, it } from 'vitest';
import { STARTER_SHIPS } from '../../internal/sim/data.js';
import { jsonEventsOf, runCli, tempHomes, type CliRun } from '../fakes/cli-process.js';
import { startFakeOpenAI, type RecordedRequest } from '../fakes/fake-openai.js';
import { startRecordingProxy, type RecordingProxy } from '../fakes/recording-proxy.js';

const CODE = 'test-code-4711';
const newHome = tempHomes();

async function startServer(): Promise<{ server: CliRun; url: string; proxy: RecordingProxy }> {
  const server = runCli(['serve', '--port', '0', '--tick-ms', '0', '--registration-code', CODE], { home: newHome() });
  const [, url] = await server.waitFor(/(http:\/\/127\.0\.0\.1:\d+)\/mcp/);
  const proxy = await startRecordingProxy(url!);
  return { server, url: url!, proxy };
}

async function stop(setup: { server: CliRun; proxy: RecordingProxy }): Promise<void> {
  await setup.proxy.close();
  setup.server.kill('SIGINT');
  await setup.server.exited;
}

async function statsFor(url: string, username: string): Promise<Record<string, unknown> | undefined> {
  const body = (await (await fetch(`${url}/stats`)).json()) as { players: Array<Record<string, unknown>> };
  return body.players.find((row) => row.username === username);
}

/** The op a recorded call was, on either face. */
function opOf(call: { name: string; args: Record<string, unknown> }): string {
  return typeof call.args.action === 'string' ? call.args.action : call.name;
}

const FACES = [
  { face: 'v2', path: '/mcp/v2', login: { name: 'spacemolt_auth', action: 'login' } },
  { face: 'v1', path: '/mcp', login: { name: 'login', action: undefined } },
] as const;

describe.each(FACES)('Skipper plays minimolt’s SpaceMolt $face face', ({ face, path, login }) => {
  it('autopilot: registers with the code, mines and sells; actions agree with the server; a second run logs in first', async () => {
    const setup = await startServer();
    const home = newHome();
    try {
      const game = `${setup.proxy.url}${path}`;
      const cli = runCli(['--game', game, '--registration-code', CODE, '--autoplay', '--max-ticks', '80', '--json'], {
        home,
      });
      const { code } = await cli.exited;
      expect(code, cli.stderr()).toBe(0);
      const end = jsonEventsOf(cli).find((event) => event.type === 'autoplay-end')!;
      const registers = setup.proxy.calls.filter((call) => opOf(call) === 'register');
      expect(registers).toHaveLength(1);
      expect(registers[0]!.args.registration_code).toBe(CODE); // filled in by Skipper, never typed by the captain
      const sells = setup.proxy.calls.filter((call) => opOf(call) === 'sell');
      expect(sells.length).toBeGreaterThan(0);
      if (face === 'v2') expect(sells[0]).toMatchObject({ name: 'spacemolt', args: { action: 'sell' } });
      else expect(sells[0]!.name).toBe('sell');
      const username = String(registers[0]!.args.username);
      const stats = await statsFor(setup.url, username);
      expect(stats?.actions).toBe(end.actions); // the summary counts exactly the server's mutations
      expect(Number(end.net_worth_end)).toBeGreaterThan(Number(end.net_worth_start));
      expect(stats?.leaks).toBe(0);

      // A later run of that account (--username: a new session without one plays an account of its own, issue 48)
      // logs in with the stored password first and never registers again.
      const before = setup.proxy.calls.length;
      const again = runCli(['--game', game, '--username', username, '--autoplay', '--max-turns', '1', '--json'], {
        home,
      });
      expect((await again.exited).code, again.stderr()).toBe(0);
      const first = setup.proxy.calls[before]!;
      expect(first.name).toBe(login.name);
      if (login.action) expect(first.args.action).toBe(login.action);
      expect(setup.proxy.calls.slice(before).some((call) => opOf(call) === 'register')).toBe(false);
    } finally {
      await stop(setup);
    }
  }, 120_000);

  it('a scripted OpenAI-compatible model plays from register to sale, reading only text', async () => {
    const setup = await startServer();
    const model = await startFakeOpenAI({ script: Array.from({ length: 40 }, () => scriptedCaptain(face)) });
    try {
      const cli = runCli(
        [
          '--game',
          `${setup.proxy.url}${path}`,
          '--registration-code',
          CODE,
          '--model',
          'custom/scripted',
          '--base-url',
          model.url,
          '--autoplay',
          '--max-turns',
          '2',
          '--json',
        ],
        { home: newHome() },
      );
      const { code } = await cli.exited;
      expect(code, cli.stderr()).toBe(0);
      expect(model.invalid).toEqual([]);
      const ops = setup.proxy.calls.map(opOf);
      for (const op of ['register', 'get_system', 'undock', 'travel', 'mine', 'dock', 'sell'])
        expect(ops).toContain(op);
      const sold = setup.proxy.calls.find((call) => opOf(call) === 'sell')!;
      const stats = await statsFor(setup.url, `scripted_${face}`);
      const end = jsonEventsOf(cli).find((event) => event.type === 'autoplay-end')!;
      expect(stats?.actions).toBe(end.actions);
      // The captain registered in the run and the text faces show no status until the end: the run's start is the
      // first state seen (the same in the summary and every stored view), so the sale shows in the credits held.
      // The sale shows against what a new solarian captain starts with (the register call below).
      expect(Number(end.credits_end)).toBeGreaterThan(STARTER_SHIPS.solarian.credits);
      expect(end.credits_start).not.toBeUndefined();
      expect(sold.args).toHaveProperty(face === 'v2' ? 'id' : 'item_id');
      // The code and the password never reach the model.
      const sent = JSON.stringify(model.chatRequests.map((request) => request.body));
      expect(sent).not.toContain(CODE);
      expect(sent).not.toMatch(/Password: [0-9a-f]{64}/);
      expect(sent).not.toMatch(/password\W{1,8}[0-9a-f]{64}/i); // nor in the v1 greeting's JSON
    } finally {
      await model.close();
      await stop(setup);
    }
  }, 120_000);
});

/** A model that plays one mine-and-sell loop by reading the result texts, one call per reply, then holds. */
function scriptedCaptain(face: 'v1' | 'v2') {
  return (request: RecordedRequest) => {
    const messages = (request.body.messages ?? []) as Array<{ role: string; content?: unknown }>;
    const results = messages
      .filter((message) => message.role === 'tool')
      .map((message) => String(message.content ?? ''));
    const all = results.join('\n');
    // v2's get_system is a table (id, name, type, …); the flat v1 face's is JSON (`system.pois[]`), as the real /mcp.
    const poi = (types: string[]): string | undefined =>
      face === 'v2'
        ? all
            .split('\n')
            .map((line) => line.split('\t'))
            .find((cells) => types.includes(cells[2] ?? ''))?.[0]
        : results.flatMap((text) => jsonPois(text)).find((row) => types.includes(row.type))?.id;
    const mined = [...all.matchAll(/Mined (\d+) [^(]*\((\w+)\)/g)];
    const item = mined[0]?.[2];
    const quantity = mined.filter((match) => match[2] === item).reduce((sum, match) => sum + Number(match[1]), 0);
    const steps: Array<[string, Record<string, unknown>] | undefined> = [
      ['register', { username: `scripted_${face}`, empire: 'solarian', registration_code: '[saved]' }],
      ['get_system', {}],
      ['undock', {}],
      ['travel', { target: poi(['asteroid_belt', 'ice_field', 'gas_cloud']) }],
      ['mine', {}],
      ['mine', {}],
      ['mine', {}],
      ['travel', { target: poi(['station']) }],
      ['dock', {}],
      ['sell', { item_id: item, quantity }],
    ];
    const next = steps[results.length];
    if (!next) return { content: 'Sold my ore; holding here.' };
    const [op, args] = next;
    return { toolCalls: [{ name: toolName(face, op), arguments: faceArgs(face, op, args) }] };
  };
}

/** The POIs of a v1 get_system answer: JSON text `{"system": {"pois": [{id, name, type, …}]}}`. */
function jsonPois(text: string): Array<{ id: string; type: string }> {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return [];
  try {
    const json = JSON.parse(text.slice(start, end + 1)) as { system?: { pois?: Array<{ id: string; type: string }> } };
    return json.system?.pois ?? [];
  } catch {
    return [];
  }
}

const V2_TOOL: Record<string, string> = { register: 'spacemolt_auth' };

function toolName(face: 'v1' | 'v2', op: string): string {
  return face === 'v1' ? op : (V2_TOOL[op] ?? 'spacemolt');
}

/** Written out by hand from SpaceMolt's public docs, not from Skipper's own face table. */
function faceArgs(face: 'v1' | 'v2', op: string, args: Record<string, unknown>): Record<string, unknown> {
  if (face === 'v2') {
    const { target, item_id: item, ...rest } = args;
    return {
      action: op,
      ...rest,
      ...(target !== undefined ? { id: target } : {}),
      ...(item !== undefined ? { id: item } : {}),
    };
  }
  const { target, ...rest } = args;
  if (op === 'travel') return { target_poi: target, ...rest };
  return rest;
}
