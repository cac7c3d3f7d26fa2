/**
 * Runs the built `isolink` (dist/cli.js) as a process, with a clean environment: only
 * what a test gives, plus PATH and a HOME with no config file.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import type { Simulator } from '../simulator';

export const CLI = resolve('dist/cli.js');

export interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly bytes: Buffer;
}

/** A fresh directory for a test's files (and the HOME the command sees). */
export function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'isolink-cli-'));
}

/** Writes a file in `dir` and returns its path. */
export function put(dir: string, name: string, content: string | Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** The environment for a simulator: service URL, admin token, username, org, file token, bucket. */
export function envFor(sim: Simulator, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ISOLINK_SERVICE_URL: sim.url,
    ISOLINK_TOKEN: sim.adminToken,
    ISOLINK_USERNAME: 'lead@acme.example',
    ISOLINK_ORG: 'acme',
    ISOLINK_FILE_TOKEN: sim.fileToken,
    ISOLINK_BUCKET_ID: 'bucket-1',
    ...extra,
  };
}

export function isolink(args: readonly string[], options: { env?: Record<string, string>; input?: string | Uint8Array; cwd?: string } = {}): Promise<Ran> {
  const home = scratch();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? home,
      env: { PATH: process.env['PATH'] ?? '', HOME: home, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', fail);
    child.on('close', (code) => {
      const bytes = Buffer.concat(out);
      done({ code, stdout: bytes.toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), bytes });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** The API requests the simulator received (setauth + commands), as parsed command arrays. */
export function apiCalls(sim: Simulator): { command: string; [key: string]: unknown }[][] {
  return sim.requests
    .filter((request) => request.path === '/api/')
    .map((request) => JSON.parse(typeof request.body === 'string' ? request.body : '[]') as { command: string }[]);
}

/** The objects of NDJSON output (`--json`), one a line. */
export function records(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
