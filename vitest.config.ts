import { readFileSync } from 'node:fs';

import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

export default defineConfig({
  plugins: [WxtVitest()],
  define: { __ISOLINK_VERSION__: JSON.stringify(version) },
  test: {
    environment: 'node',
    restoreMocks: true,
    testTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.{ts,tsx}', 'test/integration/**/*.test.ts', 'test/simulator/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          // The public types of the client and link tools: checked by tsc, nothing runs.
          name: 'types',
          include: [],
          typecheck: { enabled: true, only: true, include: ['test/types/**/*.test-d.ts'], tsconfig: './tsconfig.json' },
        },
      },
      {
        extends: true,
        test: {
          name: 'cli',
          include: ['test/cli/**/*.test.ts'],
          // Builds the npm package (dist/) once; the tests run dist/cli.js as a process.
          globalSetup: ['test/cli/global-setup.ts'],
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // Builds the production extension once, or explains loudly why e2e is skipped.
          globalSetup: ['test/e2e/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'security',
          include: ['test/security/**/*.test.ts'],
          // Builds Chrome and Firefox into .security-output/; afterwards prints the table
          // and, when every property ran, writes it into SECURITY.md.
          globalSetup: ['test/security/global-setup.ts'],
          // One Chromium at a time, and not beside the e2e project's: it runs after them.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
