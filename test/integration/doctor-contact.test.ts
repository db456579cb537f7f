// `skipper doctor` with credentials (issue 45, first contact), as a person runs it: the built CLI against separate
// `skipper serve` processes over HTTP — the text face (/mcp/v2), the JSON face (/mcp, which wants session_id) and a
// drifted game (`--drift 7`, whose map no reader understands). It logs in (by password, by a stored password, by API
// key; never registers), asks each free query once, and reports what it read per answer with a verdict from the
// answers; `--capture DIR` keeps all of it redacted and `--from DIR` gives the same report offline, also from a real
// server's published probe. A malformed capture folder is one clear line, never a stack trace.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli, tempHomes, type CliRun } from '../fakes/cli-process.js';

const newHome = tempHomes();
const CODE = 'doctor-code';
const KEY = 'mmk_doctor0key0never0shown000000001';

interface Served {
  server: CliRun;
  v2Url: string;
  v1Url: string;
  /** Nova's password, as register gave it. */
  password: string;
}

const servers: CliRun[] = [];

/** `skipper serve` (with `extra` flags) and Nova registered on it by another MCP client. */
async function serve(extra: string[] = []): Promise<Served> {
  const server = runCli(
    ['serve', '--port', '0', '--tick-ms', '1000', '--registration-code', CODE, '--api-key', KEY, ...extra],
    { home: newHome() },
  );
  servers.push(server);
  const [, v2Url] = await server.waitFor(/serving MCP at (http:\/\/\S+\/mcp\/v2)/);
  const client = new Client({ name: 'registrar', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(v2Url!)));
  const answer = (await client.callTool({
    name: 'spacemolt_auth',
    arguments: { action: 'register', username: 'Nova', empire: 'solarian', registration_code: CODE },
  })) as { content: Array<{ text: string }> };
  await client.close();
  const password = /\b[0-9a-f]{64}\b/.exec(answer.content[0]?.text ?? '')?.[0];
  if (!password) throw new Error(`no password in the register answer: ${answer.content[0]?.text}`);
  return { server, v2Url: v2Url!, v1Url: v2Url!.replace(/\/v2$/, ''), password };
}

let plain: Served;
let drifted: Served;

beforeAll(async () => {
  [plain, drifted] = await Promise.all([serve(), serve(['--drift', '7'])]);
}, 60_000);
afterAll(async () => {
  for (const server of servers) {
    server.kill('SIGINT');
    await server.exited;
  }
});

async function doctor(
  args: string[],
  options: { home?: string; env?: Record<string, string> } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = runCli(['doctor', ...args], {
    home: options.home ?? newHome(),
    ...(options.env ? { env: options.env } : {}),
  });
  const { code } = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/** The answers section and the verdict: what the report says of the answers, whatever the header named. */
const answersPart = (stdout: string): string => stdout.slice(stdout.indexOf('What Skipper read from the'));
const answerLines = (stdout: string): string[] =>
  answersPart(stdout)
    .split('\n')
    .filter((line) => line.startsWith('  '));
const lastLine = (stdout: string): string => stdout.trim().split('\n').at(-1) ?? '';

// One after another: they log in as the same player, and the game keeps one live login per player (a second one
// displaces the first, which then fails its calls).
describe('skipper doctor, logged in', () => {
  it('reads every answer on the text face (/mcp/v2) and says Skipper can play', async () => {
    const { code, stdout, stderr } = await doctor(['--game', plain.v2Url, '--username', 'Nova'], {
      env: { SKIPPER_GAME_PASSWORD: plain.password },
    });
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(
      /^ {2}status ✓ credits [\d,]+ · system Sol · docked at sol_central · fuel \d+\/\d+ · cargo \d+\/\d+ \(empty\)$/m,
    );
    expect(stdout).toMatch(/^ {2}map ✓ 30 systems · \d+ lanes$/m);
    expect(stdout).toMatch(/^ {2}system ✓ \d+ POIs \(.*1 station.*\) · \d+ lanes$/m);
    expect(stdout).toMatch(/^ {2}market ✓ \d+ items, \d+ with a bid$/m);
    expect(stdout).toMatch(/^ {2}notifications ✓ \d+ events?/m);
    expect(lastLine(stdout)).toBe('Skipper can play here');
    expect(stdout).not.toContain(plain.password);
  }, 60_000);

  it('reads the JSON face (/mcp, session_id on every call) the same way, as --json data', async () => {
    const { code, stdout, stderr } = await doctor(['--game', plain.v1Url, '--username', 'Nova', '--json'], {
      env: { SKIPPER_GAME_PASSWORD: plain.password },
    });
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as {
      face: string;
      answers_tried: boolean;
      answers: Array<{ query: string; state: string; facts: Array<{ fact: string; mark: string; value?: unknown }> }>;
      level: string;
      can_play: boolean;
      verdict: string;
    };
    expect(report.face).toBe('v1');
    expect(report.answers_tried).toBe(true);
    const status = report.answers.find((answer) => answer.query === 'get_status');
    expect(status?.state).toBe('read');
    expect(status?.facts.map((fact) => [fact.fact, fact.mark])).toEqual([
      ['credits', 'read'],
      ['system', 'read'],
      ['docked', 'read'],
      ['fuel', 'read'],
      ['cargo', 'read'],
    ]);
    expect(status?.facts.find((fact) => fact.fact === 'docked')?.value).toBe(true);
    expect(report.answers.find((answer) => answer.query === 'get_system')?.state).toBe('read');
    expect(report.answers.map((answer) => answer.state)).not.toContain('unread');
    expect([report.level, report.can_play, report.verdict]).toEqual(['can_play', true, 'Skipper can play here']);
    expect(stdout).not.toContain(plain.password);
  }, 60_000);

  it('under drift shows map ✗ with why, and says Skipper plays with gaps (exit 0)', async () => {
    const { code, stdout, stderr } = await doctor(['--game', drifted.v2Url, '--username', 'Nova'], {
      env: { SKIPPER_GAME_PASSWORD: drifted.password },
    });
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^ {2}map ✗ \(no map in it.*[\d,]+ chars of text not read\)$/m);
    expect(stdout).toMatch(/^ {2}status ✓ credits/m);
    expect(stdout).toMatch(/^ {2}system ✓ \d+ POIs/m);
    expect(lastLine(stdout)).toBe('Skipper plays here with gaps: map not read — the autopilot will go around them');
  }, 60_000);

  it('logs in with the API key alone (SKIPPER_GAME_API_KEY), never showing it', async () => {
    const { code, stdout, stderr } = await doctor(['--game', plain.v2Url, '--username', 'Nova'], {
      env: { SKIPPER_GAME_API_KEY: KEY },
    });
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^ {2}status ✓ credits/m);
    expect(`${stdout}${stderr}`).not.toContain(KEY);
  }, 60_000);

  it('without credentials lists the tools, says the answers were not tried and how to give them', async () => {
    const { code, stdout, stderr } = await doctor(['--game', plain.v2Url]);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('Answers not tried (no credentials): give --username NAME with SKIPPER_GAME_PASSWORD');
    expect(stdout).not.toContain('What Skipper read');
    expect(lastLine(stdout)).toBe('Skipper can play here');
  }, 60_000);

  it('a refused password ends with one line and exit 1, never registering', async () => {
    const { code, stdout, stderr } = await doctor(['--game', plain.v2Url, '--username', 'Nova'], {
      env: { SKIPPER_GAME_PASSWORD: 'f'.repeat(64) },
    });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^skipper: the game refused the login of "Nova"/);
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('--capture keeps everything asked, redacted; --from on the folder gives the same report offline', async () => {
    const home = newHome();
    const capture = join(home, 'first-contact');
    const live = await doctor(['--game', plain.v2Url, '--username', 'Nova', '--capture', capture], {
      home,
      env: { SKIPPER_GAME_PASSWORD: plain.password },
    });
    expect(live.code, live.stderr).toBe(0);
    const files = readdirSync(capture).sort();
    expect(files.slice(0, 3)).toEqual([
      '0001-initialize.json',
      '0002-tools_list.json',
      '0003-spacemolt_auth-login.json',
    ]);
    expect(files).toContain('0004-spacemolt-get_status.json');
    expect(files.some((file) => file.endsWith('-spacemolt-get_notifications.json'))).toBe(true);
    for (const file of files) {
      const text = readFileSync(join(capture, file), 'utf8');
      expect(text, file).not.toContain(plain.password);
      expect(text, file).not.toContain('Nova');
    }
    const initialize = JSON.parse(readFileSync(join(capture, files[0]!), 'utf8')) as {
      result: { serverInfo: { name: string }; instructions?: string; capabilities: object };
    };
    expect(initialize.result.serverInfo.name).toBe('minimolt');
    expect(initialize.result.instructions).toContain('minimolt');
    const login = JSON.parse(readFileSync(join(capture, files[2]!), 'utf8')) as {
      args: Record<string, unknown>;
      text: string;
    };
    expect(login.args.password).toBe('[REDACTED]');
    expect(login.text).toMatch(/Session ID: \[REDACTED\]/);
    const peek = JSON.parse(
      readFileSync(
        join(
          capture,
          files.find((file) => file.includes('get_notifications'))!,
        ),
        'utf8',
      ),
    ) as { args: Record<string, unknown> };
    expect(peek.args.clear).toBe(false);

    // Offline, in another home with no credentials: the same answers, the same verdict.
    const offline = await doctor(['--from', capture]);
    expect(offline.code, offline.stderr).toBe(0);
    expect(answerLines(offline.stdout)).toEqual(answerLines(live.stdout));
    expect(lastLine(offline.stdout)).toBe(lastLine(live.stdout));
    // The tool check too: the capture holds tools/list.
    expect(offline.stdout).toMatch(/Tools: 5, \d+ actions/);

    // The password is stored now: the next doctor logs in with --username alone.
    const again = await doctor(['--game', plain.v2Url, '--username', 'Nova'], { home });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^ {2}status ✓ credits/m);
  }, 90_000);

  it('--from reads the real server probe (mcp-probe-2026-07-12.json) as the real game answered', async () => {
    const folder = join(newHome(), 'probe');
    mkdirSync(folder);
    const real = join(repoRoot, 'test', 'fixtures', 'spacemolt', 'real', 'mcp-probe-2026-07-12.json');
    copyFileSync(real, join(folder, 'mcp-probe-2026-07-12.json'));
    const { code, stdout, stderr } = await doctor(['--from', folder]);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('Server: spacemolt-gameserver 0.493.0');
    expect(stdout).toContain('Tools: not in the capture (no tools/list): not checked');
    expect(answerLines(stdout)).toEqual([
      '  status ✓ credits 2,750 · system Market Prime · docked at market_prime_exchange · fuel 87/130 · cargo 30/100 (3 items)',
      '  map – not in the capture',
      '  system ✓ 5 POIs (1 sun, 2 planets, 1 gas cloud, 1 station) · 3 lanes',
      '  poi – not in the capture',
      '  market ✓ 482 items, 439 with a bid',
      '  cargo – not in the capture',
      '  skills ✓ 6 skills',
      '  notifications ✓ 0 events',
    ]);
    expect(lastLine(stdout)).toBe('Skipper can play here');
  }, 60_000);

  it('a malformed capture folder is one clear line (exit 1); a missing one a usage error (exit 2)', async () => {
    const folder = join(newHome(), 'broken');
    mkdirSync(folder);
    writeFileSync(join(folder, '0001-spacemolt-get_status.json'), '{"tool": "spacemolt", "text": ');
    const broken = await doctor(['--from', folder]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toBe('');
    expect(broken.stderr).toMatch(/^skipper: .*0001-spacemolt-get_status\.json is not a capture file \(not JSON/);
    expect(broken.stderr).not.toMatch(/\n\s+at /);

    const foreign = join(newHome(), 'foreign');
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'package.json'), '{"name": "not-a-capture"}');
    const other = await doctor(['--from', foreign]);
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/package\.json is not a capture file \(neither a call record/);
    expect(other.stderr).not.toMatch(/\n\s+at /);

    const missing = await doctor(['--from', join(folder, 'nowhere')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^skipper: --from .*nowhere: no such folder or file/);
  }, 60_000);
});
