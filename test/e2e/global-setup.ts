/**
 * Before the end-to-end files: build the production extension (the build under test),
 * and make a missing Chromium loud — a failure under CI, a skip with a banner locally.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { findChromium } from './harness';

export default function setup(): void {
  if (!findChromium()) {
    const message = "Chromium not found: the end-to-end tests need Debian's chromium (apt-get install chromium) or CHROMIUM_PATH.";
    if (process.env['CI']) throw new Error(message);
    console.warn(`\n${'!'.repeat(78)}\n!! END-TO-END TESTS SKIPPED. ${message}\n${'!'.repeat(78)}\n`);
    return;
  }
  execFileSync(resolve(import.meta.dirname, '../../node_modules/.bin/wxt'), ['build'], {
    cwd: resolve(import.meta.dirname, '../..'),
    // vitest sets NODE_ENV=test, under which Vite builds development JSX with source paths: build what ships.
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
