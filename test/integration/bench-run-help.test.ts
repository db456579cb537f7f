// `npm run bench -- --help` (the built internal/bench/run.js) prints the parts and options and runs nothing; an
// unknown option is refused with exit 2 instead of starting the minutes-long bench.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const RUN = resolve(import.meta.dirname, '../../dist/internal/bench/run.js');
const bench = (args: string[]) => spawnSync(process.execPath, [RUN, ...args], { encoding: 'utf8', timeout: 20_000 });

describe('npm run bench -- --help', () => {
  it.each(['--help', '-h'])('%s prints the parts and options and exits 0 at once', (flag) => {
    const result = bench([flag]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Usage: npm run bench');
    for (const part of ['sim', 'loop', 'store', 'memory', 'autopilot', 'soak', 'tools', 'cpu', 'planner', 'tokens'])
      expect(result.stdout).toMatch(new RegExp(`^  ${part} +\\S`, 'm'));
    expect(result.stdout).toContain('--json');
    expect(result.stderr).not.toContain('bench: ');
  });

  it('refuses an unknown option with exit 2', () => {
    const result = bench(['--fast']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('unknown option(s): --fast');
  });
});
