// The hints Skipper prints run as printed: `skipper` only when that name on PATH is this program, `npx skipper` in
// its own package folder (npm exec runs that folder's own `skipper` bin), else `node` with the full path — never a
// command that would fetch the unrelated npm package named `skipper`. A run's --home and --db follow the program, the
// URL without its password (and quoted for the shell).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { invocation, passwordNote } from '../../../internal/cli/invocation.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function fakeInstall(): { root: string; program: string; bin: string; elsewhere: string } {
  const root = mkdtempSync(join(tmpdir(), 'skipper-invocation-'));
  dirs.push(root);
  const pkg = join(root, 'pkg');
  mkdirSync(join(pkg, 'dist', 'cmd'), { recursive: true });
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify({ name: 'skipper-captain', bin: { skipper: 'dist/cmd/skipper.js' } }),
  );
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

  it('never says `npx skipper` in a folder whose package is another `skipper` (npx would run or fetch that one)', () => {
    const { program, bin, root } = fakeInstall();
    const other = join(root, 'other');
    mkdirSync(join(other, 'dist', 'cmd'), { recursive: true });
    writeFileSync(join(other, 'dist', 'cmd', 'skipper.js'), '');
    writeFileSync(
      join(other, 'package.json'),
      JSON.stringify({ name: 'skipper', bin: { skipper: 'dist/cmd/skipper.js' } }),
    );
    expect(invocation({ argv1: program, path: bin, cwd: other })).toBe(`node ${program}`);
    // A package.json without our bin, or a broken one, is not ours either.
    writeFileSync(join(other, 'package.json'), '{ not json');
    expect(invocation({ argv1: program, path: bin, cwd: other })).toBe(`node ${program}`);
  });

  it("never hints at the npm name `skipper` (someone else's package): only `skipper` on PATH, `npx skipper` here, or node", () => {
    const { program, bin, elsewhere, root } = fakeInstall();
    const hints = [
      invocation({ argv1: program, path: bin, cwd: elsewhere }),
      invocation({ argv1: program, path: bin, cwd: join(root, 'pkg') }),
    ];
    expect(hints).toEqual([`node ${program}`, 'npx skipper']);
    expect(hints.join('\n')).not.toMatch(/npm i(nstall)? -g skipper\b(?!-captain)/);
  });

  it("carries the run's --home and --db: the URL without its password, quoted where a shell would read it otherwise", () => {
    const { program, bin, elsewhere } = fakeInstall();
    const base = { argv1: program, path: bin, cwd: elsewhere };
    expect(invocation({ ...base, place: {} })).toBe(`node ${program}`);
    expect(invocation({ ...base, place: { home: '/data/runs' } })).toBe(`node ${program} --home /data/runs`);
    const place = { home: '/my runs', db: 'postgres://sk:s3cret@db.example:5432/skipper?schema=fleet_a' };
    const hint = invocation({ ...base, place });
    expect(hint).toBe(`node ${program} --home '/my runs' --db 'postgres://sk@db.example:5432/skipper?schema=fleet_a'`);
    expect(hint).not.toContain('s3cret');
    expect(passwordNote(place)).toMatch(/without its password: PostgreSQL reads it from PGPASSWORD or ~\/\.pgpass/);
    expect(passwordNote({ db: 'postgres://sk@db.example/skipper' })).toBeUndefined();
    expect(passwordNote({ home: '/data' })).toBeUndefined();
  });
});
