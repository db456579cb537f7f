#!/usr/bin/env node
// `npm run test:faults [-- --short] [-- vitest args]`: vitest refuses options it does not know, so `--short` is read
// here and becomes SKIPPER_FAULTS=short (the env var works on its own too); the rest goes to `vitest run test/faults`.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const args = process.argv.slice(2);
const short = args.includes('--short');
const mode = short ? 'short' : process.env.SKIPPER_FAULTS === 'short' ? 'short' : 'full';
const vitest = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const started = Date.now();
const result = spawnSync(process.execPath, [vitest, 'run', 'test/faults', ...args.filter((arg) => arg !== '--short')], {
  stdio: 'inherit',
  env: { ...process.env, SKIPPER_FAULTS: mode },
});
console.log(`faults: ${mode} form took ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(result.status ?? 1);
