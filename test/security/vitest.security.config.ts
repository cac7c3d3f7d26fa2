/**
 * Runs the security suite on its own until the root vitest.config.ts has a `security`
 * project:  npx vitest run --config test/security/vitest.security.config.ts
 */
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

export default defineConfig({
  root: resolve(import.meta.dirname, '../..'),
  plugins: [WxtVitest()],
  test: {
    name: 'security',
    environment: 'node',
    restoreMocks: true,
    include: ['test/security/**/*.test.ts'],
    // Builds the production extension into .security-output/ and prints the table at the end.
    globalSetup: ['test/security/global-setup.ts'],
    // One Chromium at a time.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
