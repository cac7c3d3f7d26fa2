/**
 * wxt.config.ts: no build aliases `wxt/browser` to webextension-polyfill (every file gets
 * WXT's own module); production builds make each entrypoint on its own (no chunk shared
 * between pages, the worker one file); the `vite:build:extendConfig` hook leaves the
 * modulepreload polyfill out of the pages' production builds; the background, and `wxt
 * dev`'s single group, keep WXT's defaults but for the worker's minifier (terser, for its
 * size guard): the worker stays WXT's minified classic script, which Chromium keeps a code
 * cache for (a module worker it compiles on every start).
 */
import type { InlineConfig } from 'vite';
import { describe, expect, it } from 'vitest';
import type { Entrypoint } from 'wxt';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import config from '../../wxt.config';
import { URL_PROBLEMS } from '../../src/net/url';
import { POLICY_PROBLEMS } from '../../src/policy';
import { AUTH_MESSAGES, PROTOCOL_MESSAGES, VALIDATION_REASONS } from '../../src/service/errors';
import { IMPORT_PROBLEMS, SETTING_REASONS } from '../../src/settings/errors';

type ExtendConfig = (entrypoints: readonly Entrypoint[], viteConfig: InlineConfig) => void;
type Group = Entrypoint | Entrypoint[];
type Grouped = (wxt: { config: { command: 'build' | 'serve' } }, groups: Group[]) => void;

const extendConfig = (config.hooks as Record<string, unknown> | undefined)?.['vite:build:extendConfig'] as ExtendConfig;
const grouped = (config.hooks as Record<string, unknown> | undefined)?.['entrypoints:grouped'] as Grouped;

function entry(type: string, name: string, file: string): Entrypoint {
  return { type, name, inputPath: `/ext/entrypoints/${file}`, outputDir: '/ext/out', options: {}, skipped: false } as unknown as Entrypoint;
}

const PAGES = [
  entry('unlisted-page', 'offscreen', 'offscreen/index.html'),
  entry('options', 'options', 'options/index.html'),
  entry('popup', 'popup', 'popup/index.html'),
];
const BACKGROUND = entry('background', 'background', 'background.ts');

/** A group's config after the hook; the hook only needs entry types and input paths. */
function extended(base: InlineConfig, entrypoints: readonly Entrypoint[]): InlineConfig {
  const viteConfig = structuredClone(base);
  extendConfig(entrypoints, viteConfig);
  return viteConfig;
}

describe('wxt.config.ts', () => {
  it('loads no module that swaps wxt/browser for webextension-polyfill', () => {
    expect(config.modules ?? []).not.toContain('@wxt-dev/webextension-polyfill');
  });

  it('builds each page on its own and the background alone, in production builds', () => {
    // WXT's own grouping: the pages and a module background in one group.
    const groups: Group[] = [[...PAGES, BACKGROUND]];
    grouped({ config: { command: 'build' } }, groups);
    expect(groups).toEqual([[PAGES[0]], [PAGES[1]], [PAGES[2]], BACKGROUND]);
  });

  it('leaves wxt dev’s groups as WXT makes them', () => {
    const groups: Group[] = [[...PAGES, BACKGROUND]];
    grouped({ config: { command: 'serve' } }, groups);
    expect(groups).toEqual([[...PAGES, BACKGROUND]]);
  });

  it('leaves the modulepreload polyfill out of the pages', () => {
    expect(extended({}, PAGES).build?.modulePreload).toEqual({ polyfill: false });
  });

  it('keeps a modulePreload the config already turned off', () => {
    expect(extended({ build: { modulePreload: false } }, PAGES).build?.modulePreload).toBe(false);
  });

  it('leaves the background and wxt dev (the background in the pages group) as WXT makes them', () => {
    expect(extended({}, [BACKGROUND]).build?.modulePreload).toBeUndefined();
    expect(extended({}, [...PAGES, BACKGROUND]).build?.modulePreload).toBeUndefined();
  });

  it('keeps the worker a classic script: WXT’s IIFE, never turned into an ES module; it only gains the words plugin', () => {
    // The shape WXT gives the background's library build.
    const wxtDefaults: InlineConfig = {
      build: { lib: { entry: '/ext/entrypoints/background.ts', formats: ['iife'], name: 'background' }, rolldownOptions: { output: {} } },
    };
    const { plugins, build, ...rest } = extended(wxtDefaults, [BACKGROUND]);
    const { minify, terserOptions, ...otherBuild } = build ?? {};
    expect({ ...rest, build: otherBuild }).toEqual(wxtDefaults);
    expect(minify).toBe('terser');
    expect(terserOptions?.compress).toMatchObject({ passes: 2 });
    expect((plugins ?? []).map((plugin) => (plugin as { name: string }).name)).toEqual(['isolink-worker-without-english-words']);
    expect(extended({}, PAGES).plugins).toBeUndefined();
  });

  it('minifies only the worker with terser: the pages and wxt dev’s shared group keep the default', () => {
    expect(extended({}, PAGES).build?.minify).toBeUndefined();
    expect(extended({}, [...PAGES, BACKGROUND]).build?.minify).toBeUndefined();
  });
});

describe('the service worker without the English words of codes', () => {
  const read = (file: string): string => readFileSync(resolve(import.meta.dirname, '../..', file), 'utf8');
  const transform = (source: string): string => {
    const plugin = (extended({}, [BACKGROUND]).plugins ?? [])[0] as unknown as { transform: (code: string) => { code: string } | undefined };
    return plugin.transform(source)?.code ?? source;
  };
  const TABLE = /^\/\/ English words, for the library and the command;[\s\S]*?\n\}/gmu;
  /** A file without its marked tables (from the mark's line to the table's closing brace), and the tables alone. */
  const outsideTables = (code: string): string => code.replace(TABLE, '');
  const tables = (code: string): string => (code.match(TABLE) ?? []).join('\n');
  const ownValidation = Object.fromEntries(
    Object.entries(VALIDATION_REASONS).filter(([code]) => !Object.hasOwn(URL_PROBLEMS, code) && !Object.hasOwn(POLICY_PROBLEMS, code)),
  );

  it.each([
    ['src/service/errors.ts', { ...ownValidation, ...AUTH_MESSAGES, ...PROTOCOL_MESSAGES }],
    ['src/net/url.ts', URL_PROBLEMS],
    ['src/policy/index.ts', POLICY_PROBLEMS],
    ['src/settings/errors.ts', { ...SETTING_REASONS, ...IMPORT_PROBLEMS }],
  ] as const)('%s: its tables keep every code and lose every English value; nothing else changes', (file, words: Readonly<Record<string, string>>) => {
    const source = read(file);
    const out = transform(source);
    for (const [code, text] of Object.entries(words)) {
      expect(out).toMatch(new RegExp(`\\b${code}: '',`, 'u'));
      expect(tables(out)).not.toContain(text);
      expect(tables(source)).toContain(text);
    }
    expect(outsideTables(out)).toBe(outsideTables(source));
  });

  it('leaves a file without a marked table alone', () => {
    const plugin = (extended({}, [BACKGROUND]).plugins ?? [])[0] as unknown as { transform: (code: string) => unknown };
    expect(plugin.transform("export const WORDS = { a: 'kept' };\n")).toBeUndefined();
  });
});
