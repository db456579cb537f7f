// The Node flags Skipper runs with (CLI_NODE_FLAGS, internal/shared/node-flags.ts) reach every way a person starts it:
// the shebang of the built command (`skipper`, `npx skipper`), `npm start`, and the processes tests and benchmarks
// measure (runCli). Checked by running the built file as a program and reading the flags its process got.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_NODE_FLAGS } from '../../internal/shared/index.js';
import { cliPath, repoRoot, tempHomes } from '../fakes/cli-process.js';

const newHome = tempHomes();
const shebang = `#!/usr/bin/env -S node ${CLI_NODE_FLAGS.join(' ')}`;

describe('the Node flags Skipper runs with', () => {
  it('are the shebang of the source and of the built command', () => {
    expect(readFileSync(join(repoRoot, 'cmd', 'skipper.ts'), 'utf8').split('\n')[0]).toBe(shebang);
    expect(readFileSync(cliPath, 'utf8').split('\n')[0]).toBe(shebang);
  });

  it('are given by `npm start`', () => {
    const start = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: { start: string } })
      .scripts.start;
    expect(start).toMatch(new RegExp(`^node ${CLI_NODE_FLAGS.join(' ')} dist/cmd/skipper\\.js `));
  });

  it('reach the process when the built command is run as a program', () => {
    const home = newHome();
    const seen = join(home, 'exec-argv.json');
    const preload = join(home, 'exec-argv.mjs');
    writeFileSync(
      preload,
      `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(seen)}, JSON.stringify(process.execArgv));\n`,
    );
    const version = execFileSync(cliPath, ['--version'], {
      encoding: 'utf8',
      env: { ...process.env, SKIPPER_HOME: home, NODE_OPTIONS: `--import=${preload}` },
    });
    expect(version).toMatch(/\d+\.\d+\.\d+/);
    expect(JSON.parse(readFileSync(seen, 'utf8'))).toEqual(expect.arrayContaining([...CLI_NODE_FLAGS]));
  });
});
