/**
 * Shared by the Firefox scripts: builds the Firefox MV3 release zip exactly as `wxt zip`
 * makes it, into a private output directory (never .output/, which other suites use),
 * and unpacks it, so lint and smoke look at the bytes that would be uploaded.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');
/** Where the Firefox scripts build: ISOLINK_OUT_DIR, or .i6-output. */
export const OUT_DIR = resolve(ROOT, process.env['ISOLINK_OUT_DIR'] ?? '.i6-output');
export const FIREFOX = process.env['FIREFOX_PATH'] ?? '/usr/bin/firefox-esr';

const BIN = join(ROOT, 'node_modules/.bin');

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  return pkg.version;
}

export interface FirefoxBuild {
  /** The release zip. */
  readonly zip: string;
  /** The zip unpacked: what web-ext lint and web-ext run read. */
  readonly dir: string;
}

/** The Firefox zips `wxt zip` writes: `isolink-<version>-firefox-<mv>.zip`, never the sources zip. */
function firefoxZips(version: string): string[] {
  if (!existsSync(OUT_DIR)) return [];
  const pattern = new RegExp(`^isolink-${version.replaceAll('.', '\\.')}-firefox-[\\w-]*\\.zip$`, 'u');
  return readdirSync(OUT_DIR).filter((name) => pattern.test(name));
}

/** Runs `wxt zip -b firefox --mv3` into OUT_DIR and unpacks the zip into a fresh directory. */
export function buildFirefoxZip(): FirefoxBuild {
  const version = packageVersion();
  for (const stale of firefoxZips(version)) rmSync(join(OUT_DIR, stale));
  console.log(`== wxt zip -b firefox --mv3 (into ${OUT_DIR})`);
  try {
    execFileSync(join(BIN, 'wxt'), ['zip', '-b', 'firefox', '--mv3'], {
      cwd: ROOT,
      env: { ...process.env, ISOLINK_OUT_DIR: OUT_DIR },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  } catch {
    throw new Error('wxt zip -b firefox --mv3 failed (its output is above)');
  }
  const zips = firefoxZips(version);
  if (zips.length !== 1 || zips[0] === undefined) {
    throw new Error(`expected one Firefox zip for version ${version} in ${OUT_DIR}, found: ${readdirSync(OUT_DIR).join(', ')}`);
  }
  const zip = join(OUT_DIR, zips[0]);
  console.log(`   ${zips[0]}`);
  const dir = join(OUT_DIR, 'firefox-mv3-unzipped');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  execFileSync('unzip', ['-q', zip, '-d', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (!existsSync(join(dir, 'manifest.json'))) throw new Error(`${zip} has no manifest.json at its root`);
  return { zip, dir };
}

/** `--source-dir <dir>` from the command line, if given. */
export function sourceDirArgument(argv: readonly string[]): string | undefined {
  const index = argv.indexOf('--source-dir');
  if (index === -1) return undefined;
  const value = argv[index + 1];
  if (value === undefined || value.startsWith('--')) throw new Error('--source-dir needs a directory');
  return resolve(value);
}
