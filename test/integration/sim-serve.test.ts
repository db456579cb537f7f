// `skipper serve`: flag validation (exit 2), port in use (clear message, exit 1), serving until stopped with the world
// flushed. In-process through commander, and as a real child process when dist/ is built.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, test } from 'vitest';
import { registerServeCommand, type ServeDeps } from '../../internal/cli/serve.js';
import { FatalError } from '../../internal/shared/index.js';
import { createMinimolt } from '../../internal/sim/index.js';
import { openSession, raw, rpc, sessionHeaders } from './sim-http-raw.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function program(deps: ServeDeps = {}): { program: Command; errors: string[] } {
  const errors: string[] = [];
  const root = new Command('skipper')
    .exitOverride()
    .configureOutput({ writeErr: (t) => errors.push(t), writeOut: () => {} });
  registerServeCommand(root, deps)
    .exitOverride()
    .configureOutput({ writeErr: (t) => errors.push(t), writeOut: () => {} });
  return { program: root, errors };
}

describe('skipper serve in-process', () => {
  test.each([
    [['--port', 'abc'], /--port must be a whole number/],
    [['--port', '70000'], /--port must be from 0 to 65535/],
    [['--systems', '5'], /--systems must be from 6 to 500/],
    [['--systems', '501'], /--systems must be from 6 to 500/],
    [['--hostile-chat', '1.5'], /--hostile-chat must be a number from 0 to 1/],
    [['--tick-ms', '-5'], /--tick-ms must be a whole number/],
    [['--seed', 'x'], /--seed must be a whole number/],
    [['--registration-code', 'a b'], /--registration-code must be 4 to 128 visible characters/],
    [['--bogus'], /unknown option/],
    [['--max-sessions', '0'], /--max-sessions must be from 1 to 1000000/],
    [['--max-sessions', 'many'], /--max-sessions must be a whole number/],
    [['--idle-timeout', 'soon'], /--idle-timeout must be a duration like 90s, 5m or 1h30m/],
    [['--idle-timeout', '100ms'], /--idle-timeout must be from 1s to 168h/],
    [['--max-body', '10'], /--max-body must be from 1024 to 67108864/],
    [['--max-body', '1MB'], /--max-body must be a whole number/],
    [['--registrations-per-minute', '-1'], /--registrations-per-minute must be a whole number/],
    [['--registrations-per-minute', '100000'], /--registrations-per-minute must be from 0 to 1000/],
    [['--allowed-host', 'evil host'], /--allowed-host must be a host name/],
  ])('bad flag %j is refused with a clear message', async (args, message) => {
    const { program: root, errors } = program({ stopSignal: async () => 'test' });
    const run = root.parseAsync(['node', 'skipper', 'serve', ...args]);
    await expect(run).rejects.toBeInstanceOf(CommanderError);
    expect(errors.join('')).toMatch(message);
  });

  test('a port in use is a FatalError with a clear message (exit 1)', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const { program: root } = program({ stopSignal: async () => 'test', stdout: { write: () => true } });
      const error = await root
        .parseAsync(['node', 'skipper', 'serve', '--port', String(port)])
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FatalError);
      expect((error as FatalError).message).toBe(`port ${port} is in use: pick another with --port`);
      expect((error as FatalError).exitCode).toBe(1);
    } finally {
      blocker.close();
    }
  });

  test('serves MCP until stopped, prints the URL, and flushes the world on the way out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'serve-'));
    dirs.push(dir);
    const worldDb = join(dir, 'world.db');
    const out: string[] = [];
    let password = '';
    const { program: root } = program({
      stdout: { write: (t: string) => out.push(t) },
      stopSignal: async ({ url, v2Url, registrationCode }) => {
        expect(registrationCode).toBe('sesame-42');
        expect(v2Url).toBe(url.replace(/mcp$/, 'mcp/v2'));
        const health = (await (await fetch(url.replace(/mcp$/, 'health'))).json()) as { status: string };
        expect(health.status).toBe('ok');
        const client = new Client({ name: 'serve-test', version: '1' });
        await client.connect(new StreamableHTTPClientTransport(new URL(v2Url)));
        const result = await client.callTool({
          name: 'spacemolt_auth',
          arguments: {
            action: 'register',
            username: 'Served',
            empire: 'outerrim',
            registration_code: registrationCode,
          },
        });
        password =
          /^Password: ([0-9a-f]{64})$/m.exec((result.content as Array<{ text: string }>)[0]?.text ?? '')?.[1] ?? '';
        expect(result.structuredContent).toMatchObject({ details: { password } }); // --structured
        await client.callTool({ name: 'spacemolt', arguments: { action: 'undock' } });
        await client.close();
        return 'SIGTERM';
      },
    });
    await root.parseAsync([
      'node',
      'skipper',
      'serve',
      '--port',
      '0',
      '--tick-ms',
      '0',
      '--world-db',
      worldDb,
      '--systems',
      '12',
      '--registration-code',
      'sesame-42',
      '--structured',
    ]);
    expect(out.join('')).toMatch(/serving MCP at http:\/\/127\.0\.0\.1:\d+\/mcp\/v2 .*recommended/);
    expect(out.join('')).toMatch(/and at http:\/\/127\.0\.0\.1:\d+\/mcp \(flat tools\)/);
    expect(out.join('')).toMatch(/registration code: sesame-42/);
    expect(out.join('')).toMatch(/stopped \(SIGTERM\)/);
    const again = await createMinimolt({ worldDb, tickMs: 0 });
    const player = again.engine.findPlayer('Served');
    expect(password).toMatch(/^[0-9a-f]{64}$/);
    expect(player?.password).toBe(password);
    expect(player?.docked).toBe(false);
    expect(again.engine.world.systems.size).toBe(12);
    await again.close();
  });
});

describe('skipper serve limits and host checks', () => {
  test('--max-sessions, --idle-timeout, --max-body, --registrations-per-minute and --allowed-host reach the server', async () => {
    const out: string[] = [];
    const { program: root } = program({
      stdout: { write: (t: string) => out.push(t) },
      stopSignal: async ({ url }) => {
        const { port } = new URL(url);
        const first = await openSession(url);
        await openSession(url); // --max-sessions 1: evicts the first
        expect((await rpc(url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, sessionHeaders(first))).status).toBe(
          404,
        );
        const session = await openSession(url);
        const big = await rpc(
          url,
          {
            jsonrpc: '2.0',
            id: 3,
            method: 'tools/call',
            params: { name: 'help', arguments: { pad: 'x'.repeat(3000) } },
          },
          sessionHeaders(session),
        );
        expect(big.status).toBe(413);
        const register = async (username: string): Promise<string> =>
          (
            await rpc(
              url,
              {
                jsonrpc: '2.0',
                id: 4,
                method: 'tools/call',
                params: {
                  name: 'register',
                  arguments: { username, empire: 'solarian', registration_code: 'serve-code' },
                },
              },
              sessionHeaders(session),
            )
          ).json().result.content[0].text;
        // The flat face's register greeting is JSON, as the real /mcp's: a session id and the password.
        expect(JSON.parse(await register('first_one'))).toMatchObject({
          session_id: expect.stringMatching(/^[0-9a-f]{64}$/),
          password: expect.stringMatching(/^[0-9a-f]{64}$/),
        });
        const limited: unknown = JSON.parse(await register('second_one'));
        expect(limited).toMatchObject({ code: 'rate_limited', retry_after: expect.any(Number) });
        expect(limited).not.toHaveProperty('error'); // the real server's rate_limited JSON has a code and no error key
        const named = await raw(url.replace(/mcp$/, 'stats'), { headers: { host: `game.example:${port}` } });
        expect(named.status).toBe(200);
        expect((await raw(url.replace(/mcp$/, 'stats'), { headers: { host: `other.example:${port}` } })).status).toBe(
          403,
        );
        return 'SIGTERM';
      },
    });
    await root.parseAsync([
      'node',
      'skipper',
      'serve',
      '--port',
      '0',
      '--tick-ms',
      '0',
      '--registration-code',
      'serve-code',
      '--max-sessions',
      '1',
      '--idle-timeout',
      '1h30m',
      '--max-body',
      '2048',
      '--registrations-per-minute',
      '1',
      '--allowed-host',
      'game.example',
    ]);
    expect(out.join('')).toMatch(/sessions: at most 1, closed after 1h30m idle; request bodies up to 2048 bytes/);
    expect(out.join('')).toMatch(/Host names served: localhost, 127\.0\.0\.1, \[::1\], game\.example/);
  });

  test('bound to 0.0.0.0 with no --allowed-host, the banner says Host checks allow loopback names and its own addresses only', async () => {
    const out: string[] = [];
    const { program: root } = program({
      stdout: { write: (t: string) => out.push(t) },
      stopSignal: async () => 'SIGTERM',
    });
    await root.parseAsync(['node', 'skipper', 'serve', '--host', '0.0.0.0', '--port', '0', '--tick-ms', '0']);
    expect(out.join('')).toMatch(
      /Host checks: only loopback names \(localhost, 127\.0\.0\.1, \[::1\]\) and this machine's own addresses are served; add names with --allowed-host/,
    );
  });
});

const cli = join(process.cwd(), 'dist/cmd/skipper.js');

describe.skipIf(!existsSync(cli))('skipper serve as a process', () => {
  function runCli(args: string[]): {
    child: ReturnType<typeof spawn>;
    output: () => string;
    exit: Promise<number | null>;
  } {
    const child = spawn(process.execPath, [cli, 'serve', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let text = '';
    child.stdout?.on('data', (d: Buffer) => {
      text += d.toString();
    });
    child.stderr?.on('data', (d: Buffer) => {
      text += d.toString();
    });
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, output: () => text, exit };
  }

  test('bad flag: exit 2 with a message, no stack trace', async () => {
    const run = runCli(['--systems', '3']);
    expect(await run.exit).toBe(2);
    expect(run.output()).toMatch(/--systems must be from 6 to 500/);
    expect(run.output()).not.toMatch(/at .*\.js:\d+/);
  });

  test('serves, answers /health, and exits 0 on SIGINT', async () => {
    const run = runCli(['--port', '0', '--tick-ms', '0']);
    // The banner's last line: the whole banner (both URLs, the code) has been printed by then.
    await expect.poll(() => run.output(), { timeout: 15_000 }).toMatch(/Ctrl\+C stops/);
    expect(run.output()).toMatch(/registration code: mm-[0-9a-f]{16}/);
    const url = /and at (http:\/\/127\.0\.0\.1:\d+\/mcp) /.exec(run.output())?.[1] ?? '';
    expect(((await (await fetch(url.replace(/mcp$/, 'health'))).json()) as { status: string }).status).toBe('ok');
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
    expect(run.output()).toMatch(/stopped/);
  });
});
