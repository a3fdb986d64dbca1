import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Two cores: keep workers few so timing-sensitive tests (rate limiter) are not starved.
    maxWorkers: 2,
  },
});
