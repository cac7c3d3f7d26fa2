/**
 * Where the canary may be, and the scans that look for it everywhere else: requests
 * (browser-side and as the simulator received them), tab URLs, console messages,
 * errors, notifications, replies to pages, texts the test collected, and the files of
 * a closed profile.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Server } from 'node:http';
import type { RecordedRequest } from '../simulator';
import type { SecuritySession } from './browser';
import { masked, type Finder } from './canary';

export interface Leak {
  readonly where: string;
  readonly form: string;
  readonly excerpt: string;
}

/** Paths of the service whose POST body may carry the token. */
export const TOKEN_PATHS = ['/api/', '/getfile/', '/putfile/'];

function bodyMayCarryToken(method: string, url: string, serviceOrigins: readonly string[]): boolean {
  if (method !== 'POST') return false;
  try {
    const parsed = new URL(url);
    return serviceOrigins.includes(parsed.origin) && TOKEN_PATHS.includes(parsed.pathname) && parsed.search === '' && parsed.username === '';
  } catch {
    return false;
  }
}

export interface EvidenceScan {
  readonly leaks: Leak[];
  /** Requests examined (browser records + simulator log). */
  readonly requestsScanned: number;
  /** Bodies to the service that carried the canary: the positive control of the request scan. */
  readonly tokenBodies: { browser: number; cdp: number; simulator: number };
  readonly textsScanned: number;
}

/**
 * Scans everything the session recorded. `serviceOrigins`: the origins configured as
 * the service at some point of the run (their token paths may receive the canary in a
 * POST body). `texts`: further texts the test collected (DOM, clipboard, export file…).
 */
export function scanEvidence(
  session: SecuritySession,
  finder: Finder,
  canary: string,
  serviceOrigins: readonly string[],
  texts: readonly { where: string; text: string }[],
): EvidenceScan {
  const leaks: Leak[] = [];
  const check = (where: string, text: string): void => {
    const form = finder.inText(text);
    if (form !== null) leaks.push({ where, form, excerpt: masked(text, canary) });
  };
  const tokenBodies = { browser: 0, cdp: 0, simulator: 0 };
  for (const request of session.requests) {
    const label = `${request.source} request ${request.method} ${masked(request.url, canary, 120)}`;
    check(`${label}: URL`, request.url);
    check(`${label}: headers`, JSON.stringify(request.headers));
    if (finder.inText(request.body) !== null) {
      if (bodyMayCarryToken(request.method, request.url, serviceOrigins)) {
        if (request.source.startsWith('cdp')) tokenBodies.cdp += 1;
        else tokenBodies.browser += 1;
      } else check(`${label}: body`, request.body);
    }
  }
  const simulated = (request: RecordedRequest, origin: string, name: string): void => {
    const label = `${name} received ${request.method} ${request.path}`;
    check(`${label}: path and query`, `${request.path} ${JSON.stringify(request.query)}`);
    check(`${label}: headers`, JSON.stringify(request.headers));
    const body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    if (finder.inText(body) !== null) {
      if (bodyMayCarryToken(request.method, `${origin}${request.path}`, serviceOrigins)) tokenBodies.simulator += 1;
      else check(`${label}: body`, body);
    }
  };
  for (const request of session.sim.requests) simulated(request, session.sim.url, 'simulator');
  let textsScanned = 0;
  const groups: [string, readonly { source: string; text: string }[]][] = [
    ['tab URL', session.navigations.map((url) => ({ source: 'navigation', text: url }))],
    ['open tab', session.tabUrls().map((url) => ({ source: 'tab', text: url }))],
    ['console', session.consoles],
    ['error', session.errors],
    ['reply to a page', session.replies],
    ['notification', session.notes.map((note) => ({ source: note.id, text: `${note.title}\n${note.message}\n${note.buttons.join('\n')}` }))],
    ['collected', texts.map((t) => ({ source: t.where, text: t.text }))],
  ];
  for (const [kind, records] of groups) {
    for (const record of records) {
      textsScanned += 1;
      check(`${kind} (${record.source.slice(0, 120)})`, record.text);
    }
  }
  return { leaks, requestsScanned: session.requests.length + session.sim.requests.length, tokenBodies, textsScanned };
}

export interface DiskScan {
  readonly files: number;
  readonly bytes: number;
  readonly leaks: Leak[];
  /** Files under an allowed directory that hold the canary (the positive control). */
  readonly allowedHits: string[];
}

/** Reads every regular file under `dir` and looks for the canary's forms in its bytes. */
export function scanProfile(dir: string, finder: Finder, allowedDirs: readonly string[] = []): DiskScan {
  const leaks: Leak[] = [];
  const allowedHits: string[] = [];
  let files = 0;
  let bytes = 0;
  const walk = (path: string, depth: number): void => {
    if (depth > 16) return;
    for (const name of readdirSync(path)) {
      const full = join(path, name);
      const stat = lstatSync(full);
      if (stat.isDirectory()) walk(full, depth + 1);
      else if (stat.isFile()) {
        const content = readFileSync(full);
        files += 1;
        bytes += content.length;
        const form = finder.inBytes(content);
        if (form === null) continue;
        const rel = relative(dir, full);
        if (allowedDirs.some((allowed) => rel.startsWith(`${allowed}${sep}`))) allowedHits.push(rel);
        else leaks.push({ where: `profile file ${rel}`, form, excerpt: '' });
      }
    }
  };
  walk(dir, 0);
  return { files, bytes, leaks, allowedHits };
}

/** What a scripted service answers to one request. */
export interface Scripted {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body: string | Uint8Array;
}

/** A local HTTP server that answers each request with what `answer` returns (a stand-in service). */
export async function startScripted(
  answer: (method: string, path: string, body: Buffer) => Scripted | 'drop',
): Promise<{ url: string; close(): Promise<void> }> {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const reply = answer(req.method ?? '', req.url ?? '', Buffer.concat(chunks));
      if (reply === 'drop') {
        req.socket.destroy();
        return;
      }
      res.writeHead(reply.status, reply.headers ?? { 'content-type': 'application/json' });
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolvePromise) => server.listen(0, '127.0.0.1', resolvePromise));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolvePromise) => {
        server.closeAllConnections();
        server.close(() => {
          resolvePromise();
        });
      }),
  };
}

/** A local server that records whatever reaches it: the target of redirects must stay empty. */
export interface Sink {
  readonly url: string;
  readonly received: string[];
  readonly server: Server;
  close(): Promise<void>;
}

export async function startSink(): Promise<Sink> {
  const { createServer } = await import('node:http');
  const received: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push(`${req.method ?? ''} ${req.url ?? ''} ${Buffer.concat(chunks).toString('utf8').slice(0, 200)}`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[{}]');
    });
  });
  await new Promise<void>((resolvePromise) => server.listen(0, '127.0.0.1', resolvePromise));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    server,
    close: () =>
      new Promise<void>((resolvePromise) => {
        server.closeAllConnections();
        server.close(() => {
          resolvePromise();
        });
      }),
  };
}
