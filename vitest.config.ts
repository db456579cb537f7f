import { defineConfig } from 'vitest/config';

// Unit tests run in parallel; integration tests spawn servers and child processes, so they get longer timeouts.
// The fault suite (test/faults, `npm run test:faults`) runs only when SKIPPER_FAULTS is set (full | short): one file
// at a time, with its own reporter that prints each group's figures and a `N passed, N failed` line.
const faults = process.env.SKIPPER_FAULTS;

export default defineConfig({
  test: faults
    ? {
        include: ['test/faults/**/*.test.ts'],
        testTimeout: faults === 'short' ? 90_000 : 360_000,
        hookTimeout: 30_000,
        pool: 'forks',
        fileParallelism: false,
        reporters: ['default', './test/faults/reporter.ts'],
        env: { SKIPPER_FAULTS: faults },
      }
    : {
        include: ['test/**/*.test.ts'],
        exclude: ['test/faults/**', '**/node_modules/**'],
        testTimeout: 30_000,
        hookTimeout: 30_000,
        pool: 'forks',
        reporters: ['default'],
      },
});
