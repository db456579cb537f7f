import { defineConfig } from 'vitest/config';

// Unit tests run in parallel; integration tests spawn servers and child processes, so they get longer timeouts.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
