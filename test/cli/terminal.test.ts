/**
 * Output for people at a terminal, run in-process with streams that say they are one:
 * aligned tables, colour only when supported and NO_COLOR unset, a progress bar on
 * stderr; and none of it when the streams are pipes.
 */
/* eslint-disable no-control-regex -- these tests look for terminal escape codes */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { run } from '../../src/cli/run';
import type { CliIo, OutStream } from '../../src/cli/output';
import { startSimulator, type Simulator } from '../simulator';
import { envFor, put, scratch } from './helpers';

class Capture implements OutStream {
  text = '';
  constructor(
    readonly isTTY: boolean,
    readonly columns = 100,
  ) {}
  write(chunk: string | Uint8Array): boolean {
    this.text += typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk);
    return true;
  }
}

function io(tty: boolean, env: Record<string, string>, input = ''): CliIo & { stdout: Capture; stderr: Capture } {
  return {
    env,
    stdin: Object.assign(
      (async function* () {
        yield await Promise.resolve(new TextEncoder().encode(input));
      })(),
      { isTTY: false },
    ),
    stdout: new Capture(tty),
    stderr: new Capture(tty),
  };
}

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await sim.close();
});

describe('on a terminal', () => {
  it('draws a progress bar on stderr while bulk creates, and clears it', async () => {
    const urls = Array.from({ length: 120 }, (_, i) => `https://h${i}.example/`).join('\n');
    const terminal = io(true, envFor(sim), urls);
    expect(await run(['bulk'], terminal)).toBe(0);
    const frames = terminal.stderr.text.split('\r\u001b[K').filter((frame) => frame.startsWith('Creating contexts'));
    expect(frames.map((frame) => frame.replace(/^.*\] /, ''))).toEqual(['0/120', '50/120', '100/120', '120/120']);
    expect(terminal.stderr.text).toMatch(/\r\u001b\[Kisolink: 120 of 120 created\.\n$/);
    // An aligned table with a header, in bold.
    expect(terminal.stdout.text.split('\n')[0]).toMatch(/^\u001b\[1mURL {20,}LAUNCH\u001b\[22m$/);
  });

  it('colours a proxy diff unless NO_COLOR is set or TERM is dumb', async () => {
    const file = put(scratch(), 'p.json', '[]');
    const coloured = io(true, envFor(sim));
    expect(await run(['proxies', 'diff', file], coloured)).toBe(1);
    expect(coloured.stdout.text).toBe('\u001b[31m- acme-egress http://proxy.acme.example:3128\u001b[39m\n');
    for (const env of [{ NO_COLOR: '1' }, { TERM: 'dumb' }]) {
      const plain = io(true, envFor(sim, env));
      await run(['proxies', 'diff', file], plain);
      expect(plain.stdout.text).toBe('- acme-egress http://proxy.acme.example:3128\n');
    }
  });

  it('refuses to write a downloaded file to the terminal', async () => {
    const terminal = io(true, envFor(sim));
    expect(await run(['files', 'get', 'abc'], terminal)).toBe(2);
    expect(terminal.stderr.text).toBe('isolink: Refusing to write binary data to a terminal. Use -o <path>, or redirect stdout.\n');
  });
});

describe('on a pipe', () => {
  it('writes no progress, no colour, no escape codes, and tab-separated rows', async () => {
    const pipe = io(false, envFor(sim), 'https://a.example/\nhttps://b.example/\n');
    expect(await run(['bulk'], pipe)).toBe(0);
    expect(pipe.stderr.text).toBe('isolink: 2 of 2 created.\n');
    expect(pipe.stdout.text + pipe.stderr.text).not.toMatch(/[\r\u001b]/);
    expect(pipe.stdout.text.split('\n')[0]).toMatch(/^https:\/\/a\.example\/\thttp:/);
  });
});
