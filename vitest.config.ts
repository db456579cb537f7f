import { defineConfig } from 'vitest/config';

// Two projects: unit tests (sharing a worker's module cache) and integration tests (a fresh process per file), all in
// parallel across the workers.
// The fault suite (test/faults, `npm run test:faults`) runs only when SKIPPER_FAULTS is set (full | short): one file
// at a time, with its own reporter that prints each group's figures and a `N passed, N failed` line.
const faults = process.env.SKIPPER_FAULTS;

// Workers for the default run. vitest 4 defaults to cores - 1, one worker on a 2-core machine, where most files wait on
// ticks, child processes and sockets rather than on the CPU: measured on 2 cores, 1 worker took 398 s, 3 took 201 s.
// SKIPPER_TEST_WORKERS overrides it (e.g. 1 on a machine someone else is measuring; `--maxWorkers` works too).
const workers = Number(process.env.SKIPPER_TEST_WORKERS) || 3;

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
        exclude: ['test/faults/**', '**/node_modules/**'],
        testTimeout: 30_000,
        hookTimeout: 30_000,
        pool: 'forks',
        maxWorkers: workers,
        reporters: ['default'],
        projects: [
          // Unit tests share their worker's module cache (isolate: false): loading the modules again for each of
          // ~150 files took longer than the tests themselves. None mocks a module (vi.mock); what one file could leave
          // behind (fake timers, spies, stubbed env) is undone after each file by test/setup/restore-globals.ts.
          {
            extends: true,
            test: {
              name: 'unit',
              include: ['test/unit/**/*.test.ts'],
              isolate: false,
              setupFiles: ['test/setup/restore-globals.ts'],
            },
          },
          // Integration, store-contract and browser tests spawn servers and child processes; they too share their
          // worker's loaded modules (a fresh process per file cost ~20 s of CPU in imports, on a suite bound by the
          // CPU: measured 201 s -> 189 s alone on 2 cores). What a file changes process-wide is undone after it by
          // test/setup/restore-globals.ts (spies, timers, stubbed env, process.exitCode).
          {
            extends: true,
            test: {
              name: 'integration',
              include: ['test/integration/**/*.test.ts', 'test/browser/**/*.test.ts', 'test/contract/**/*.test.ts'],
              isolate: false,
              setupFiles: ['test/setup/restore-globals.ts'],
            },
          },
        ],
      },
});
