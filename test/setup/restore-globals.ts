// Test files share a worker (vitest.config.ts, isolate: false): after each file, undo what a test may have left
// behind for the next file — fake timers, spies, stubbed globals and environment variables, and an exit code set by
// a command run in-process.
import { afterAll, vi } from 'vitest';

afterAll(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  process.exitCode = undefined;
});
