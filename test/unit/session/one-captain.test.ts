// Issue 47: openCaptain (internal/session/captain.ts) is the only place that wires a captain. Outside tests nothing
// else starts the autoplay engine, makes a session planner, connects a game or switches a runner's model; the CLI,
// the fleet and the bench reach the captain through openCaptain.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const files = [...sourceFiles(join(root, 'internal')), ...sourceFiles(join(root, 'cmd'))].map((path) => ({
  path: relative(root, path),
  // Comments say these names too: only code counts.
  code: readFileSync(path, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1'),
}));

/** Files whose code calls `name(` (a call, not a declaration of it). */
function callers(name: string): string[] {
  const call = new RegExp(`(?<!function\\s)(?<![\\w.])${name}\\(`);
  return files.filter((file) => call.test(file.code)).map((file) => file.path);
}

describe('one captain object', () => {
  it('only the captain starts the autoplay engine, makes a planner or connects a game', () => {
    expect(callers('runAutoplayTurns')).toEqual(['internal/session/captain.ts']);
    expect(callers('createSessionPlanner')).toEqual(['internal/session/captain.ts']);
    expect(callers('connectGame')).toEqual(['internal/session/captain.ts']);
    // The loop bench times the session engine alone, over an instant in-process game (no connection, no autoplay).
    expect(callers('setUpSession')).toEqual(['internal/bench/loop.ts', 'internal/session/captain.ts']);
  });

  it("a runner's model is switched only by the captain's useModel", () => {
    // A runner's or a planner's useModel is the captain's to call; everyone else asks the captain (captain.useModel).
    const switchers = files.filter((file) => /(?<!captain)\.useModel\(/.test(file.code)).map((file) => file.path);
    expect(switchers).toEqual(['internal/session/captain.ts']);
    expect(files.filter((file) => /\.provider\s*=[^=]/.test(file.code)).map((file) => file.path)).toEqual([]);
  });

  it('the CLI, the fleet and the bench open their captains with openCaptain', () => {
    const openers = callers('openCaptain');
    expect(openers).toEqual(
      expect.arrayContaining([
        'internal/cli/play-session.ts',
        'internal/fleet/captain-session.ts',
        'internal/bench/captain.ts',
      ]),
    );
    expect(openers.every((path) => !path.startsWith('cmd/'))).toBe(true);
  });
});
