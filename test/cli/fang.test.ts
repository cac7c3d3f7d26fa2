/**
 * The commands that need no service: refang, defang, extract, unwrap, from stdin and from
 * files, plain and --json, with no configuration at all.
 */
import { describe, expect, it } from 'vitest';

import { isolink, put, scratch } from './helpers';

describe('isolink refang / defang', () => {
  it('refangs stdin line by line, keeping every line and its order', async () => {
    const ran = await isolink(['refang'], { input: 'hxxps://evil[.]com/a\n\nnot a url\r\nhxxp[://]b[.]net\n' });
    expect(ran).toMatchObject({ code: 0, stderr: '' });
    expect(ran.stdout).toBe('https://evil.com/a\n\nnot a url\nhttp://b.net\n');
  });

  it('defangs the files named, in order, and reads stdin for -', async () => {
    const dir = scratch();
    const one = put(dir, 'one.txt', 'https://evil.com/a\n');
    const ran = await isolink(['defang', one, '-'], { input: 'http://b.net/x' });
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe('hxxps://evil[.]com/a\nhxxp://b[.]net/x\n');
  });

  it('prints one JSON object per line with --json', async () => {
    const ran = await isolink(['refang', '--json'], { input: 'hxxp://a[.]com\n' });
    expect(
      ran.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual([{ input: 'hxxp://a[.]com', output: 'http://a.com' }]);
  });

  it('exits 2 naming a file it cannot read, and prints no result', async () => {
    const ran = await isolink(['refang', '/nonexistent/feed.txt']);
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe('');
    expect(ran.stderr).toMatch(/^isolink: Cannot read \/nonexistent\/feed\.txt \(ENOENT\)\. Check the path\.\n$/);
  });
});

describe('isolink extract', () => {
  const report = 'Payload at hxxp://evil[.]com/a.exe, mirror hxxps[://]evil2[.]net/b.\nAgain http://evil.com/a.exe and ftp://not.this/x\n';

  it('prints every http(s) URL once, refanged, in order', async () => {
    const ran = await isolink(['extract'], { input: report });
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe('http://evil.com/a.exe\nhttps://evil2.net/b\n');
  });

  it('unwraps with --unwrap, and says which wrapper with --json', async () => {
    const safe = 'hxxps://eur01.safelinks.protection.outlook[.]com/?url=https%3A%2F%2Freal.example%2Fpath&data=05';
    const plain = await isolink(['extract', '--unwrap'], { input: `see ${safe} now` });
    expect(plain.stdout).toBe('https://real.example/path\n');
    const json = await isolink(['extract', '--unwrap', '--json'], { input: safe });
    expect(JSON.parse(json.stdout)).toMatchObject({ url: 'https://real.example/path', wrappers: ['Microsoft Safe Links'] });
  });
});

describe('isolink unwrap', () => {
  it("replaces each line's rewritten links with their real targets and keeps the rest", async () => {
    const input = [
      'https://urldefense.com/v3/__https://real.example/a__;!!abc!def$',
      'https://nam02.safelinks.protection.outlook.com/?url=https%3A%2F%2Furldefense.proofpoint.com%2Fv2%2Furl%3Fu%3Dhttps-3A__real.example_b%26d%3DX&data=1',
      'plain https://plain.example/ stays',
      '',
    ].join('\n');
    const ran = await isolink(['unwrap'], { input });
    expect(ran.code).toBe(0);
    expect(ran.stdout.split('\n')).toEqual(['https://real.example/a', 'https://real.example/b', 'plain https://plain.example/ stays', '']);
  });

  it('reports the layers and an opaque wrapper with --json', async () => {
    const input = 'https://protect-eu.mimecast.com/s/AbCdEfGhIj?domain=evil.example\n';
    const ran = await isolink(['unwrap', '--json'], { input });
    const record = JSON.parse(ran.stdout) as { url: string; wrappers: string[]; opaque?: string };
    expect(record.url).toBe('https://protect-eu.mimecast.com/s/AbCdEfGhIj?domain=evil.example');
    expect(record.wrappers).toEqual([]);
    expect(record.opaque).toMatch(/Mimecast/);
  });
});

describe('isolink itself', () => {
  it('prints its version and help, exit 0', async () => {
    const version = await isolink(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const help = await isolink(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['refang', 'defang', 'extract', 'unwrap', 'open', 'bulk', 'contexts get', 'users', 'org', 'egress', 'proxies diff', 'files put']) {
      expect(help.stdout).toContain(`  ${command}`);
    }
    const commandHelp = await isolink(['bulk', '--help']);
    expect(commandHelp.stdout).toMatch(/^Usage: isolink bulk \[file\]/);
  });

  it('exits 2 on an unknown command or flag, naming it and where to look', async () => {
    const command = await isolink(['frobnicate']);
    expect(command).toMatchObject({ code: 2, stdout: '' });
    expect(command.stderr).toBe("isolink: Unknown command 'frobnicate'. See 'isolink --help' for the commands.\n");
    const flag = await isolink(['refang', '--frob=secret-value']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe("isolink: Unknown flag --frob. See 'isolink refang --help'.\n");
  });

  it('stops quietly when the reader goes away (isolink extract | head -1)', async () => {
    const { spawnSync } = await import('node:child_process');
    const many = Array.from({ length: 20_000 }, (_, i) => `https://e${i}.example/`).join('\n');
    const ran = spawnSync('sh', ['-c', `node "$CLI" extract | head -n 1`], {
      input: many,
      env: { PATH: process.env['PATH'] ?? '', CLI: (await import('./helpers')).CLI },
      encoding: 'utf8',
    });
    expect(ran.stdout).toBe('https://e0.example/\n');
    expect(ran.stderr).toBe('');
  });
});
