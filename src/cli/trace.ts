/**
 * The --verbose trace: each request's method, endpoint and command names, then its
 * status and time. Never a body, a header or a form value: the token travels in the body.
 */
import type { Output } from './output';

/** The command names of a JSON command array (`setauth, create_context`), or what kind of body it is. */
function bodyShape(body: unknown): string {
  if (typeof body === 'string') {
    try {
      const commands: unknown = JSON.parse(body);
      if (Array.isArray(commands)) {
        const names = commands.map((item: unknown) =>
          typeof item === 'object' && item !== null && typeof (item as { command?: unknown }).command === 'string'
            ? (item as { command: string }).command
            : '?',
        );
        return `${names.length} command${names.length === 1 ? '' : 's'}: ${names.join(', ')}`;
      }
    } catch {
      // Not JSON: said as such below.
    }
    return `${body.length} characters`;
  }
  if (body instanceof FormData) return `multipart form (${[...body.keys()].join(', ')})`;
  return 'no body';
}

/** fetch, with each request and its outcome traced when --verbose is on. */
export function tracedFetch(out: Output): typeof fetch {
  if (!out.verbose) return (input, init) => fetch(input, init);
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    out.trace(`${init?.method ?? 'GET'} ${url.origin}${url.pathname} (${bodyShape(init?.body)})`);
    const started = performance.now();
    try {
      const response = await fetch(input, init);
      out.trace(`HTTP ${response.status} in ${Math.round(performance.now() - started)} ms`);
      return response;
    } catch (error) {
      out.trace(`no answer after ${Math.round(performance.now() - started)} ms (${error instanceof Error ? error.name : 'error'})`);
      throw error;
    }
  };
}
