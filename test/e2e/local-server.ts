/**
 * A web server on 127.0.0.1 for the end-to-end tests that need a site of their own: it
 * records every request it is asked, so a test can prove what a browser did not fetch.
 * With no files it answers anything with 200 (a target that counts hits); with files it
 * serves them and answers 404 to the rest.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A file served: its content type and its body. */
export type Served = readonly [type: string, body: string | Buffer];

export interface LocalServer {
  readonly origin: string;
  /** Every request asked, in order: `METHOD /path`. */
  readonly hits: string[];
  close(): Promise<void>;
}

export async function localServer(files: Readonly<Record<string, Served>> = {}): Promise<LocalServer> {
  const hits: string[] = [];
  const any = Object.keys(files).length === 0;
  const server: Server = createServer((request, response) => {
    hits.push(`${request.method ?? ''} ${request.url ?? ''}`);
    const file = any ? (['text/plain', 'counted'] as const) : files[request.url ?? ''];
    response.writeHead(file === undefined ? 404 : 200, {
      'Content-Type': file?.[0] ?? 'text/plain',
      'Access-Control-Allow-Origin': '*',
      'Cache-Control': 'no-store',
    });
    response.end(file?.[1] ?? 'not found');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${String(port)}`,
    hits,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => {
          done();
        });
      }),
  };
}
