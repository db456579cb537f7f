// A command loads what it uses: the commands over stored sessions start without the openai SDK, the MCP SDK,
// minimolt or the bench (each start paid ~0.45 s of CPU for them), and play loads the openai SDK only for a model
// that is not built in. The modules a process loads are listed by a loader hook (test/fixtures/module-log).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliPath, repoRoot } from '../fakes/cli-process.js';

const dir = mkdtempSync(join(tmpdir(), 'skipper-lazy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const register = join(repoRoot, 'test', 'fixtures', 'module-log', 'register.mjs');
let runs = 0;

/** The URLs of the modules `skipper ARGS` loaded, with its exit status. */
function modulesOf(args: string[]): { status: number | null; modules: string[] } {
  runs += 1;
  const log = join(dir, `modules-${runs}.txt`);
  const result = spawnSync(process.execPath, ['--import', register, cliPath, ...args], {
    env: { PATH: process.env.PATH ?? '', SKIPPER_HOME: join(dir, 'home'), NO_COLOR: '1', MODULE_LOG: log },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, modules: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

const heavy = {
  openai: /\/node_modules\/openai\//,
  mcp: /\/node_modules\/@modelcontextprotocol\//,
  minimolt: /\/dist\/internal\/sim\//,
  bench: /\/dist\/internal\/bench\//,
};

function loaded(modules: string[]): string[] {
  return Object.entries(heavy)
    .filter(([, pattern]) => modules.some((url) => pattern.test(url)))
    .map(([name]) => name);
}

describe('modules loaded per command', () => {
  it('play with the built-in autopilot loads the MCP SDK and minimolt, not the openai SDK', () => {
    const { status, modules } = modulesOf(['--autoplay', '--max-ticks', '3', '--tick-ms', '0', '-s', 'lazy']);
    expect(status).toBe(0);
    // the hook sees a command's heavy modules when it does load them
    expect(loaded(modules)).toEqual(['mcp', 'minimolt']);
  });

  it.each([['sessions'], ['replay', 'lazy', '--instant'], ['export', 'lazy'], ['report', 'lazy'], ['memory']])(
    'skipper %s loads none of them',
    (...args) => {
      const { status, modules } = modulesOf(args);
      expect(status).toBe(0);
      expect(loaded(modules)).toEqual([]);
    },
  );
});
