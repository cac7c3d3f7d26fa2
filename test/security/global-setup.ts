/**
 * Before the security files: build the production extension for Chrome and Firefox into
 * .security-output/ (never .output/, which other suites build and read), start a fresh
 * ledger, and make a missing Chromium loud. After them: print the table and, when every
 * property ran, write it into SECURITY.md.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { findChromium } from '../e2e/harness';
import { SECURITY_OUT_DIR } from './browser';
import { clearLedger } from './ledger';
import { writeReport } from './report';

const ROOT = resolve(import.meta.dirname, '../..');

function build(browser: 'chrome' | 'firefox'): void {
  execFileSync(resolve(ROOT, 'node_modules/.bin/wxt'), ['build', '-b', browser], {
    cwd: ROOT,
    // vitest sets NODE_ENV=test, under which Vite builds development JSX with source paths: build what ships.
    env: { ...process.env, NODE_ENV: 'production', ISOLINK_OUT_DIR: '.security-output' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

export default function setup(): () => void {
  clearLedger();
  rmSync(SECURITY_OUT_DIR, { recursive: true, force: true });
  if (!findChromium()) {
    const message = "Chromium not found: the security suite's browser runs need Debian's chromium (apt-get install chromium) or CHROMIUM_PATH.";
    if (process.env['CI']) throw new Error(message);
    console.warn(`\n${'!'.repeat(78)}\n!! SECURITY BROWSER RUNS SKIPPED. ${message}\n${'!'.repeat(78)}\n`);
  }
  // The same command as `npm run build` and `npm run build:firefox`, with the output moved.
  build('chrome');
  build('firefox');
  return () => {
    writeReport();
    // The builds are not sources: leave nothing for `eslint .` or git to pick up.
    if (!process.env['ISOLINK_KEEP_SECURITY_OUTPUT']) rmSync(SECURITY_OUT_DIR, { recursive: true, force: true });
  };
}
