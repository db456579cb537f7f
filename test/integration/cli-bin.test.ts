// The built entry point is what `npm link`, a global install and `npx skipper` (inside the clone) run directly: it
// must be executable with its #!/usr/bin/env node line, also after `rm -rf dist && npm run build` (tsc alone writes
// new files without the executable bit, and npx's cached link of the clone then fails with "Permission denied").
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cliPath, repoRoot } from '../fakes/cli-process.js';

describe.skipIf(process.platform === 'win32')('the built skipper program', () => {
  it('is executable and runs on its own', () => {
    expect(statSync(cliPath).mode & 0o111).toBe(0o111);
    expect(readFileSync(cliPath, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    const version = (JSON.parse(readFileSync(`${repoRoot}/package.json`, 'utf8')) as { version: string }).version;
    expect(execFileSync(cliPath, ['--version'], { encoding: 'utf8' }).trim()).toBe(version);
  });
});
