// `skipper doctor` as a person runs it (the built CLI): against minimolt served over HTTP in this process it says
// Skipper can play; against a server built from the public v0.547 catalogue it can too, and when that server renames
// a parameter Skipper sends (travel's `id` -> `poi_id`) it names the rename and says Skipper cannot play (exit 1);
// an address where nothing listens is a clear message without a stack trace. No run calls a game tool.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMinimolt, type HttpHandle, type Minimolt } from '../../internal/sim/index.js';
import { runCli, tempHomes } from '../fakes/cli-process.js';
import { listenCatalog, readCatalog, renameParam, type CatalogServer } from '../fakes/catalog-mcp-server.js';
import { closeLocalServer, listenLocally } from '../fakes/local-server.js';
import { createServer } from 'node:http';

const home = tempHomes();
let sim: Minimolt;
let http: HttpHandle;
const servers: CatalogServer[] = [];

beforeAll(async () => {
  sim = await createMinimolt({ seed: 42, tickMs: 10_000 });
  http = await sim.listen({ port: 0 });
});
afterAll(async () => {
  for (const server of servers) await server.close();
  await sim.close();
});

async function doctor(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = runCli(['doctor', ...args], { home: home() });
  const { code } = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

describe.concurrent('skipper doctor', () => {
  it('says Skipper can play minimolt served over HTTP, naming the face and the tool count', async () => {
    const players = sim.stats().players.length;
    const { code, stdout, stderr } = await doctor(['--game', http.v2Url]);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('Server: minimolt');
    expect(stdout).toContain('SpaceMolt v2 face');
    expect(stdout).toMatch(/Tools: 5, \d+ actions/);
    expect(stdout).toMatch(/✓ travel: spacemolt travel\(id\) \[mutation\]/);
    expect(stdout.trim().split('\n').at(-1)).toBe('Skipper can play here');
    // Never logs in: no account appeared on the server.
    expect(sim.stats().players.length).toBe(players);
  }, 60_000);

  it('reports the same as JSON with --json, on the flat v1 face too', async () => {
    const { code, stdout } = await doctor(['--game', http.url, '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      face: string;
      can_play: boolean;
      tool_count: number;
      verdict: string;
      ops: Array<{ op: string; status: string }>;
    };
    expect(report.face).toBe('v1');
    expect(report.can_play).toBe(true);
    expect(report.tool_count).toBeGreaterThan(20);
    expect(report.ops.find((check) => check.op === 'travel')?.status).toBe('ok');
    expect(report.verdict).toBe('Skipper can play here');
  }, 60_000);

  it('can play a server that lists the public v0.547 catalogue, and names the action it dropped (sell_ship)', async () => {
    const server = await listenCatalog(readCatalog('catalog-v0.547.json'));
    servers.push(server);
    const { code, stdout, stderr } = await doctor(['--game', server.url]);
    expect(code, stderr).toBe(0);
    expect(stdout).toContain('Tools: 18, 281 actions');
    expect(stdout).toContain('• spacemolt_ship: sell_ship\n');
    expect(stdout).not.toContain('New actions');
    expect(stdout).toContain('Skipper can play here');
    expect(server.calls).toBe(0);
  }, 60_000);

  it('names a renamed parameter Skipper sends and says it cannot play (exit 1)', async () => {
    const catalog = renameParam(readCatalog('catalog-v0.547.json'), {
      tool: 'spacemolt',
      action: 'travel',
      from: 'id',
      to: 'poi_id',
    });
    const server = await listenCatalog(catalog);
    servers.push(server);
    const { code, stdout } = await doctor(['--game', server.url]);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /✗ travel: spacemolt travel\(id\) \[mutation\] — spacemolt travel takes poi_id, not id \(renamed\?\)/,
    );
    expect(stdout).toMatch(/✓ jump: spacemolt jump\(id\)/);
    expect(stdout.trim().split('\n').at(-1)).toBe(
      'Skipper cannot play here: travel: spacemolt travel takes poi_id, not id (renamed?)',
    );
    const json = await doctor(['--game', server.url, '--json']);
    const report = JSON.parse(json.stdout) as {
      can_play: boolean;
      ops: Array<{ op: string; params: Array<{ sent: string; declared: boolean; renamed_to?: string }> }>;
    };
    expect(report.can_play).toBe(false);
    expect(report.ops.find((check) => check.op === 'travel')?.params).toEqual([
      { ours: 'target', sent: 'id', declared: false, renamed_to: 'poi_id' },
    ]);
    expect(server.calls).toBe(0);
  }, 60_000);

  it('says plainly when nothing answers at the address, without a stack trace (exit 1)', async () => {
    // A port that was free a moment ago: listen, note it, close.
    const probe = createServer();
    const port = await listenLocally(probe);
    await closeLocalServer(probe);
    const { code, stdout, stderr } = await doctor(['--game', `http://127.0.0.1:${port}/mcp/v2`]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /^skipper: could not reach the game at http:\/\/127\.0\.0\.1:\d+\/mcp\/v2: .*Check the address and that the server is running\./,
    );
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});
