import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

export default defineConfig({
  plugins: [WxtVitest()],
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    restoreMocks: true,
    // Integration tests start servers on 127.0.0.1; keep the run deterministic.
    testTimeout: 20_000,
  },
});
