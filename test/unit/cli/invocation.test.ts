// The hints Skipper prints run as printed: `skipper` only when that name on PATH is this program, `npx skipper` in
// its own package folder, else `node` with the full path.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { invocation } from '../../../internal/cli/invocation.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function fakeInstall(): { root: string; program: string; bin: string; elsewhere: string } {
  const root = mkdtempSync(join(tmpdir(), 'skipper-invocation-'));
  dirs.push(root);
  const pkg = join(root, 'pkg');
  mkdirSync(join(pkg, 'dist', 'cmd'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'skipper' }));
  const program = join(pkg, 'dist', 'cmd', 'skipper.js');
  writeFileSync(program, '');
  const bin = join(root, 'bin');
  mkdirSync(bin);
  const elsewhere = join(root, 'elsewhere');
  mkdirSync(elsewhere);
  return { root, program, bin, elsewhere };
}

describe('invocation', () => {
  it('says `skipper` when that name on PATH is this program (npm link, a global install)', () => {
    const { program, bin, elsewhere } = fakeInstall();
    symlinkSync(program, join(bin, 'skipper'));
    expect(invocation({ argv1: program, path: bin, cwd: elsewhere })).toBe('skipper');
  });

  it('never says `skipper` when that name is another program (the unrelated npm package of that name)', () => {
    const { program, bin, elsewhere, root } = fakeInstall();
    writeFileSync(join(root, 'other.js'), '');
    symlinkSync(join(root, 'other.js'), join(bin, 'skipper'));
    expect(invocation({ argv1: program, path: bin, cwd: elsewhere })).toBe(`node ${program}`);
  });

  it('ignores node_modules/.bin on PATH: npx and npm run add it for one command only', () => {
    const { program, root } = fakeInstall();
    const npxBin = join(root, 'pkg', 'node_modules', '.bin');
    mkdirSync(npxBin, { recursive: true });
    symlinkSync(program, join(npxBin, 'skipper'));
    expect(invocation({ argv1: join(npxBin, 'skipper'), path: npxBin, cwd: join(root, 'pkg') })).toBe('npx skipper');
  });

  it('says `npx skipper` in its own package folder, `node <path>` anywhere else', () => {
    const { program, bin, elsewhere, root } = fakeInstall();
    expect(invocation({ argv1: program, path: bin, cwd: join(root, 'pkg') })).toBe('npx skipper');
    expect(invocation({ argv1: program, path: bin, cwd: elsewhere })).toBe(`node ${program}`);
  });
});
