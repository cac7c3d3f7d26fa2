/**
 * wxt.config.ts's `vite:build:extendConfig` hook: production builds of the pages resolve
 * `wxt/browser` to WXT's own module (not webextension-polyfill) and leave out the
 * modulepreload polyfill; the background, and `wxt dev`'s single group, keep WXT's defaults.
 * The alias comes from the real @wxt-dev/webextension-polyfill module, as WXT merges it.
 */
import polyfillModule from '@wxt-dev/webextension-polyfill';
import { mergeConfig, type InlineConfig } from 'vite';
import { describe, expect, it } from 'vitest';
import type { Entrypoint, Wxt } from 'wxt';
import config from '../../wxt.config';

type ExtendConfig = (entrypoints: readonly Entrypoint[], viteConfig: InlineConfig) => void;

const extendConfig = (config.hooks as Record<string, unknown> | undefined)?.['vite:build:extendConfig'] as ExtendConfig;

function entry(type: string, name: string, file: string): Entrypoint {
  return { type, name, inputPath: `/ext/entrypoints/${file}`, outputDir: '/ext/out', options: {}, skipped: false } as unknown as Entrypoint;
}

const PAGES = [
  entry('unlisted-page', 'offscreen', 'offscreen/index.html'),
  entry('options', 'options', 'options/index.html'),
  entry('popup', 'popup', 'popup/index.html'),
];
const BACKGROUND = entry('background', 'background', 'background.ts');

/** The Vite config WXT builds a group with, as far as the polyfill module makes it. */
async function configWithPolyfillModule(): Promise<InlineConfig> {
  const resolved: ((wxt: Wxt) => void)[] = [];
  const wxt = {
    config: { vite: () => Promise.resolve({}) },
    hooks: { hook: (name: string, fn: (wxt: Wxt) => void) => name === 'config:resolved' && resolved.push(fn) },
  } as unknown as Wxt;
  await polyfillModule.setup?.(wxt, {});
  for (const fn of resolved) fn(wxt);
  return wxt.config.vite({ command: 'build', mode: 'production', browser: 'chrome', manifestVersion: 3 });
}

/** A group's config after the hook; the hook only needs entry types and input paths. */
function extended(base: InlineConfig, entrypoints: readonly Entrypoint[]): InlineConfig {
  const viteConfig = mergeConfig(base, {}) as InlineConfig;
  extendConfig(entrypoints, viteConfig);
  return viteConfig;
}

describe('wxt.config.ts: which wxt/browser each build gets', () => {
  it('starts from the polyfill module aliasing wxt/browser (as an object)', async () => {
    expect((await configWithPolyfillModule()).resolve?.alias).toEqual({ 'wxt/browser': '@wxt-dev/webextension-polyfill/browser' });
  });

  it('drops that alias for the pages, and the modulepreload polyfill', async () => {
    const pages = extended(await configWithPolyfillModule(), PAGES);
    expect(pages.resolve?.alias).toEqual({});
    expect(pages.build?.modulePreload).toEqual({ polyfill: false });
  });

  it('drops it when Vite holds aliases as an array, keeping every other alias', async () => {
    const base = mergeConfig(await configWithPolyfillModule(), { resolve: { alias: [{ find: /^@lib\//u, replacement: '/ext/lib/' }] } }) as InlineConfig;
    expect(Array.isArray(base.resolve?.alias)).toBe(true);
    const pages = extended(base, PAGES);
    expect(pages.resolve?.alias).toEqual([{ find: /^@lib\//u, replacement: '/ext/lib/' }]);
    const regex = extended({ resolve: { alias: [{ find: /^wxt\/browser$/u, replacement: 'polyfill' }] } }, PAGES);
    expect(regex.resolve?.alias).toEqual([]);
  });

  it('keeps a modulePreload the config already turned off', () => {
    expect(extended({ build: { modulePreload: false } }, PAGES).build?.modulePreload).toBe(false);
  });

  it('leaves the background on the polyfill', async () => {
    const background = extended(await configWithPolyfillModule(), [BACKGROUND]);
    expect(background.resolve?.alias).toEqual({ 'wxt/browser': '@wxt-dev/webextension-polyfill/browser' });
    expect(background.build?.modulePreload).toBeUndefined();
  });

  it('leaves wxt dev alone: there the background shares the pages group', async () => {
    const dev = extended(await configWithPolyfillModule(), [...PAGES, BACKGROUND]);
    expect(dev.resolve?.alias).toEqual({ 'wxt/browser': '@wxt-dev/webextension-polyfill/browser' });
    expect(dev.build?.modulePreload).toBeUndefined();
  });
});
