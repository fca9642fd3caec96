import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: true,
    // Two test files at a time on the two-core CI machine (the default is one fewer than the
    // cores): most files wait on processes, sockets and timers, so the suite ends sooner.
    maxWorkers: 2,
  },
});
