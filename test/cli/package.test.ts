/**
 * The npm package as a user gets it: `npm pack` at the root (dist/ was built by the
 * project's global setup, as prepack builds it), installed into an empty directory with
 * nothing else (its runtime dependencies packed from this checkout, and --offline: no
 * test touches the network), then the command, the library (against the simulator) and its types
 * (tsc --strict, nodenext, no @types/node). The image decoder's WebAssembly is read from the
 * installed package's dist/, never from this checkout's node_modules.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startSimulator, type Simulator } from '../simulator';
import { scratch } from './helpers';

const ROOT = resolve('.');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string; scripts: Record<string, string>; dependencies: Record<string, string> };

function npm(args: readonly string[], cwd: string): string {
  return execFileSync('npm', [...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

let app: string;
let packed: { files: { path: string }[]; filename: string };
let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator();
  const dir = scratch();
  [packed] = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT)) as [typeof packed];
  // Every runtime package of this checkout (the dependencies and theirs), packed as the registry would serve it.
  const runtime = npm(['ls', '--all', '--omit=dev', '--parseable'], ROOT).trim().split('\n').slice(1);
  const tarballs = runtime.map((path) => {
    const [tarball] = JSON.parse(npm(['pack', path, '--ignore-scripts', '--json', '--pack-destination', dir], ROOT)) as [{ filename: string }];
    return join(dir, tarball.filename);
  });
  app = join(dir, 'app');
  execFileSync('mkdir', [app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  npm(['install', join(dir, packed.filename), ...tarballs, '--offline', '--no-audit', '--no-fund'], app);
}, 120_000);

afterAll(async () => {
  await sim.close();
});

describe('the npm package', () => {
  it('packs the built library, its types, the command and the decoder with its licences, and nothing of the extension', () => {
    const paths = packed.files.map((file) => file.path).sort();
    expect(paths).toEqual(
      expect.arrayContaining([
        'dist/cli.js',
        'dist/index.d.ts',
        'dist/index.js',
        'dist/zxing_reader.wasm',
        'dist/webp_dec.wasm',
        'dist/licenses/zxing-wasm.txt',
        'dist/licenses/jsquash-webp.txt',
        'dist/licenses/pdfjs-dist.txt',
        'package.json',
        'README.md',
        'LICENSE',
      ]),
    );
    const known =
      /^(?:dist\/[\w.-]+\.(?:js|d\.ts)|dist\/(?:zxing_reader|webp_dec)\.wasm|dist\/licenses\/[\w-]+\.txt|package\.json|README\.md|CHANGELOG\.md|SECURITY\.md|LICENSE)$/;
    expect(paths.filter((path) => !known.test(path))).toEqual([]);
  });

  it('runs no install step (no preinstall, install or postinstall) and brings at most 12 runtime packages, each named in the README', () => {
    for (const script of ['preinstall', 'install', 'postinstall']) expect(manifest.scripts[script]).toBeUndefined();
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['@kenjiuno/msgreader', 'fflate', 'parse5', 'postal-mime', 'tldts', 'zod']);
    const tree = npm(['ls', '--all', '--omit=dev', '--parseable'], app).trim().split('\n').slice(1);
    // Isolink itself and what it brings, counted transitively.
    const brought = tree.map((path) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)).filter((name) => name !== 'isolink');
    expect(brought.length).toBeLessThanOrEqual(12);
    const readme = readFileSync('README.md', 'utf8');
    for (const name of brought) expect(readme, `README names ${name}`).toContain(`\`${name}\``);
  });

  it('installs node_modules/.bin/isolink, which prints the version', () => {
    const ran = spawnSync(join(app, 'node_modules/.bin/isolink'), ['--version'], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' } });
    expect(ran.status).toBe(0);
    expect(ran.stdout).toBe(`${manifest.version}\n`);
  });

  it('is importable as ESM, reaches no browser API, and creates a context in the simulator', async () => {
    const script = `
      import { createClient, refang, defang, extractUrls, unwrap, isAuthError, AuthError, isValidationError, linksInMail, linksInImage } from 'isolink';
      import { readFileSync } from 'node:fs';
      const images = await Promise.all(process.env.IMAGES.split(',').map(async (file) => linksInImage(readFileSync(file))));
      const pdfs = [];
      for (const file of process.env.PDFS.split(',')) pdfs.push(await linksInMail(readFileSync(file), { name: 'doc.pdf' }));
      const mail = await linksInMail(new TextEncoder().encode('From: a@b.example\\r\\nSubject: s\\r\\nContent-Type: text/html\\r\\n\\r\\n<a href="https://real.example/x">www.paypal.com</a>'));
      const client = createClient({ baseUrl: process.env.SIM_URL, launchBase: process.env.SIM_URL, token: process.env.SIM_TOKEN });
      const { url } = unwrap(refang('hxxps://eur01.safelinks.protection.outlook[.]com/?url=https%3A%2F%2Freal.example%2F&data=1'));
      const created = await client.createContext({ username: 'lead@acme.example', url, auto_domain_allow: true });
      let refused = false;
      try { await client.createContext({ username: 'lead@acme.example', url: 'javascript:alert(1)' }); } catch (error) { refused = isValidationError(error); }
      console.log(JSON.stringify({
        url, launch: client.launchUrl(created.browse_context_id), defanged: defang('https://a.example/'),
        found: extractUrls('see hxxp://b[.]example/x'), guard: isAuthError(new AuthError()), refused,
        browser: typeof globalThis.browser, chrome: typeof globalThis.chrome,
        mail: mail.ok ? mail.links.map((link) => [link.target, link.mismatch]) : mail.reason,
        images: images.map((image) => image.ok ? image.codes.map((code) => code.target) : image.reason),
        pdfs: pdfs.map((pdf) => pdf.ok ? [pdf.links.map((link) => link.target), pdf.problems.map((problem) => problem.code)] : pdf.reason),
      }));`;
    // Asynchronously: the simulator answers from this process.
    const ran = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      cwd: app,
      encoding: 'utf8',
      env: {
        PATH: process.env['PATH'] ?? '',
        SIM_URL: sim.url,
        SIM_TOKEN: sim.adminToken,
        // A PNG (read by ZXing's own reader) and a WebP (read through libwebp), both from the package's dist/.
        IMAGES: ['content-https.png', 'format-webp-lossy.webp'].map((file) => join(ROOT, 'test/fixtures/qr', file)).join(','),
        // pdf.js bundled; @napi-rs/canvas, not installed with the package, draws no page here.
        PDFS: ['links.pdf', 'qr-image.pdf'].map((file) => join(ROOT, 'test/fixtures/pdf', file)).join(','),
      },
    });
    expect(ran.stderr).toBe('');
    const result = JSON.parse(ran.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({
      url: 'https://real.example/',
      defanged: 'hxxps://a[.]example/',
      found: ['http://b.example/x'],
      guard: true,
      refused: true,
      browser: 'undefined',
      chrome: 'undefined',
      mail: [['https://real.example/x', true]],
      images: [['https://mail-quota.evil.example/verify?user=alice'], ['https://evil.example/format']],
      pdfs: [
        [
          ['https://base.example/portal/login?id=7', 'https://absolute.example/a', 'https://text.example/path?q=1', 'https://defanged.example/x'],
          ['pdfNotDrawn'],
        ],
        [[], ['pdfNotDrawn']],
      ],
    });
    expect(String(result['launch'])).toMatch(new RegExp(`^${sim.url}/launch\\?ctx=\\w+$`));
    expect(sim.state.contexts.size).toBe(1);
  });

  it('has types that compile under tsc --strict with nodenext and no @types/node', () => {
    writeFileSync(
      join(app, 'check.ts'),
      `import { createClient, refang, defang, extractUrls, unwrap, isApiError, isAuthError, CommandError, type CreatedContext, type Unwrapped, type ClientOptions } from 'isolink';
       const options: ClientOptions = { baseUrl: 'https://isolation.example', launchBase: 'https://isolation.example', token: () => 't' };
       const client = createClient(options);
       const found: string[] = extractUrls(refang(defang('https://a.example/')));
       const wrapped: Unwrapped = unwrap(found[0] ?? '');
       export async function go(): Promise<string> {
         try {
           const created: CreatedContext = await client.createContext({ username: 'u', url: wrapped.url, auto_domain_allow: true });
           return client.launchUrl(created.browse_context_id);
         } catch (error) {
           if (isAuthError(error)) return error.code;
           if (error instanceof CommandError) return error.serviceMessage;
           return isApiError(error) ? error.message : 'unknown';
         }
       }
       // @ts-expect-error: the client takes no unknown option
       createClient({ ...options, tokn: 'x' });
      `,
    );
    const ran = spawnSync(process.execPath, [TSC, '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--noEmit', 'check.ts'], {
      cwd: app,
      encoding: 'utf8',
    });
    expect(ran.stdout + ran.stderr).toBe('');
    expect(ran.status).toBe(0);
  });

  it("compiles the README's library examples against the installed types", () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('### The library'), readme.indexOf('## Permissions'));
    const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    // What the examples take from Node and from the reader, declared here: the app has no @types/node.
    writeFileSync(
      join(app, 'ambient.d.ts'),
      `declare const process: { env: Record<string, string | undefined> };
       declare const baseUrl: string, launchBase: string, token: string;
       declare module 'node:fs/promises' { export function readFile(path: string, encoding: 'utf8'): Promise<string>; export function readFile(path: string): Promise<Uint8Array>; }`,
    );
    const files = blocks.map((code, i) => {
      const name = `readme-${i}.ts`;
      writeFileSync(join(app, name), `${code}\nexport {};\n`);
      return name;
    });
    const ran = spawnSync(
      process.execPath,
      [TSC, '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--noEmit', '--noUnusedLocals', 'false', 'ambient.d.ts', ...files],
      { cwd: app, encoding: 'utf8' },
    );
    expect(ran.stdout + ran.stderr).toBe('');
    expect(ran.status).toBe(0);
  });

  it('passes npm publish --dry-run (against an unreachable registry: nothing leaves the machine)', () => {
    const out = spawnSync('npm', ['publish', '--dry-run', '--ignore-scripts', '--registry', 'http://127.0.0.1:9/', '--fetch-retries=0'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(out.status).toBe(0);
    expect(out.stdout + out.stderr).toContain(`isolink@${manifest.version}`);
  });
});
