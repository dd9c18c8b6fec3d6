import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'examples/**/*.test.ts', 'fuzz/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
