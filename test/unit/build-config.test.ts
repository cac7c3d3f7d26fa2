/**
 * wxt.config.ts: no build aliases `wxt/browser` to webextension-polyfill (every file gets
 * WXT's own module); production builds make each entrypoint on its own (no chunk shared
 * between pages, the worker one file); the `vite:build:extendConfig` hook leaves the
 * modulepreload polyfill out of the pages' production builds; the background, and `wxt
 * dev`'s single group, keep WXT's defaults: the worker stays WXT's minified classic
 * script, which Chromium keeps a code cache for (a module worker it compiles on every start).
 */
import type { InlineConfig } from 'vite';
import { describe, expect, it } from 'vitest';
import type { Entrypoint } from 'wxt';
import config from '../../wxt.config';

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

  it('keeps the worker a classic script: WXT’s IIFE, never turned into an ES module', () => {
    // The shape WXT gives the background's library build.
    const wxtDefaults: InlineConfig = {
      build: { lib: { entry: '/ext/entrypoints/background.ts', formats: ['iife'], name: 'background' }, rolldownOptions: { output: {} } },
    };
    expect(extended(wxtDefaults, [BACKGROUND])).toEqual(wxtDefaults);
  });
});

describe('the content security policies', () => {
  type Manifest = { content_security_policy: Record<string, string>; sandbox?: { pages: string[] }; permissions: string[] };
  const manifestFor = (browser: string): Manifest =>
    (config.manifest as (env: Record<string, unknown>) => Manifest)({ browser, manifestVersion: 3, mode: 'production', command: 'build' });

  it('let only the sandboxed decoder page compile WebAssembly in Chrome', () => {
    const manifest = manifestFor('chrome');
    expect(manifest.content_security_policy['extension_pages']).not.toContain('wasm-unsafe-eval');
    expect(manifest.content_security_policy['extension_pages']).toContain("frame-src 'self'");
    expect(manifest.content_security_policy['sandbox']).toBe("sandbox allow-scripts; default-src 'none'; script-src 'self' 'wasm-unsafe-eval'");
    expect(manifest.sandbox).toEqual({ pages: ['qr-decoder.html'] });
  });

  it('allow it in Firefox (no sandboxed pages there), where every built page forbids it again in its own policy', () => {
    const manifest = manifestFor('firefox');
    expect(manifest.content_security_policy['extension_pages']).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(manifest.sandbox).toBeUndefined();
    const vite = (config.vite as () => { plugins: { name: string; apply?: string; transformIndexHtml: () => unknown }[] })();
    const plugin = vite.plugins.find((candidate) => candidate.name === 'isolink-pages-no-wasm');
    expect(plugin?.apply).toBe('build');
    expect(plugin?.transformIndexHtml()).toEqual([
      { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: "script-src 'self'" }, injectTo: 'head-prepend' },
    ]);
  });
});
