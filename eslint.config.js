// @ts-check
import js from '@eslint/js';
import regexp from 'eslint-plugin-regexp';
import globals from 'globals';
import tseslint from 'typescript-eslint';

import { LAYERS } from './layers.js';

const POLYFILL = { name: 'webextension-polyfill', message: "Import { browser } from 'wxt/browser'." };

/** Sinks no file may use: HTML from strings, code from strings. */
const SINKS = [
  { selector: 'AssignmentExpression[left.property.name=/^(innerHTML|outerHTML)$/]', message: 'Build DOM nodes, never HTML strings.' },
  { selector: "CallExpression[callee.property.name='insertAdjacentHTML']", message: 'Build DOM nodes, never HTML strings.' },
  { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: 'Render text, never HTML strings.' },
  { selector: "NewExpression[callee.name='Function']", message: 'No code from strings.' },
];

/**
 * storage.sync copies what it holds to every browser of the user's account: shipped code
 * never touches it (settings and the token stay on this device; src/settings/item.ts only
 * knows local and session). The tests read it, to prove it stays empty.
 */
const NO_SYNC_STORAGE = [
  { selector: "MemberExpression[object.property.name='storage'][property.name='sync']", message: 'Nothing goes to storage.sync: it leaves this device.' },
  { selector: "MemberExpression[object.property.name='storage'][property.value='sync']", message: 'Nothing goes to storage.sync: it leaves this device.' },
];

/**
 * One no-restricted-imports rule per folder of src/: the layers it may not import (see
 * layers.js; from a `types` layer, type imports only), browser APIs unless it is a browser
 * layer, Node built-ins unless a Node one.
 */
function layerRules() {
  return Object.entries(LAYERS).map(([folder, layer]) => {
    const allowed = [...layer.uses.map((use) => `src/${use}`), ...(layer.types ?? []).map((use) => `types of src/${use}`)];
    const message = `src/${folder} (${layer.what}) may import only ${allowed.length > 0 ? allowed.join(', ') : 'its own files'}: see layers.js and CONTRIBUTING.md.`;
    const others = Object.keys(LAYERS).filter((other) => other !== folder && !layer.uses.includes(other));
    const group = (other) => [`../${other}`, `../${other}/**`, `../../${other}`, `../../${other}/**`];
    const patterns = others.map((other) => ({ group: group(other), message, allowTypeImports: (layer.types ?? []).includes(other) }));
    if (!layer.browser)
      patterns.push({
        group: ['wxt', 'wxt/*', '@wxt-dev/*'],
        message: `src/${folder} uses no browser APIs: it runs in Node too (layers.js).`,
        allowTypeImports: false,
      });
    if (!layer.node)
      patterns.push({ group: ['node:*'], message: `src/${folder} runs in the extension: no Node built-ins (layers.js).`, allowTypeImports: false });
    return {
      files: [`src/${folder}/**`],
      rules: { 'no-restricted-imports': 'off', '@typescript-eslint/no-restricted-imports': ['error', { paths: [POLYFILL], patterns }] },
    };
  });
}

export default tseslint.config(
  {
    ignores: [
      '.output/**',
      '.bench-output/**',
      '.i6-output/**',
      '.security-output/**',
      '.wxt/**',
      'node_modules/**',
      'coverage/**',
      'test-results/**',
      'dist/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  regexp.configs['flat/recommended'],
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      // Regular expressions run on attacker-chosen text: no super-linear behaviour.
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
      'regexp/no-misleading-capturing-group': 'error',
      // Spreading a string walks code points, which is what the text checks want.
      '@typescript-eslint/no-misused-spread': 'off',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', ...SINKS],
      'no-eval': 'error',
      'no-implied-eval': 'error',
    },
  },
  {
    // Shipped code: no console chatter (it could carry a user's URL), no direct polyfill import.
    files: ['src/**', 'entrypoints/**'],
    rules: {
      'no-console': ['error', { allow: ['warn', 'error'] }],
      'no-restricted-syntax': ['error', ...SINKS, ...NO_SYNC_STORAGE],
      'no-restricted-imports': ['error', { paths: [POLYFILL] }],
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Only src/api/transport.ts calls fetch.' }],
    },
  },
  {
    // The command's --verbose trace wraps fetch (it logs the endpoint, never a body) and hands it to the client.
    files: ['src/cli/trace.ts'],
    rules: { 'no-restricted-globals': 'off' },
  },
  {
    // The decoder's frame reads the decoder's .wasm from the extension's own package (its own origin), never the network.
    files: ['src/ui/decoder/frame.ts'],
    rules: { 'no-restricted-globals': 'off' },
  },
  {
    files: ['src/api/client.ts'],
    rules: {
      // The client hands the global fetch to the transport; it never calls it.
      'no-restricted-globals': 'off',
    },
  },
  ...layerRules(),
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
