/**
 * Unwrapping: the real target of a link that a mail gateway or a redirector rewrote
 * (`https://nam12.safelinks.protection.outlook.com/?url=https%3A%2F%2Fevil.example%2F&data=…`
 * → `https://evil.example/`). Isolating the wrapper instead would register the click
 * with the gateway and, with an automatic domain_allow for the wrapper's host, keep
 * the isolated browser from ever reaching the page.
 */
import { WRAPPER_RULES, type WrapperId } from './wrappers';

export { WRAPPER_IDS, WRAPPER_NAMES, type WrapperId } from './wrappers';

/** What unwrap returns: the innermost URL, the wrappers peeled, and the wrapper that could not be read, if any. */
export interface Unwrapped {
  /** The innermost URL that can be decoded offline (the input itself when not wrapped). */
  readonly url: string;
  /** The wrapping services peeled, outermost first. */
  readonly layers: readonly WrapperId[];
  /** Set when `url` is itself a wrapper that cannot be decoded offline (Mimecast, a broken link). */
  readonly opaque?: WrapperId;
}

/** More layers than any real chain has: a deeper one is left as the opaque wrapper it is. */
export const MAX_UNWRAP_DEPTH = 8;

type Step = { readonly peeled: string; readonly id: WrapperId } | { readonly opaque: WrapperId } | undefined;

/** One layer: the URL inside `text`, the wrapper that cannot be read, or undefined when `text` is not wrapped. */
function peelOnce(text: string): Step {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  // The parser gives the host lower-cased, in punycode, without userinfo or port.
  const host = url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
  const rule = WRAPPER_RULES.find((candidate) => candidate.matches(host, url.pathname));
  if (!rule) return undefined;
  const inner = rule.peel(url);
  // What a wrapper carries is shorter than the wrapper, and a URL: anything else is not read.
  if (inner === undefined || inner.length >= text.length || !URL.canParse(inner)) return { opaque: rule.id };
  return { peeled: inner, id: rule.id };
}

/**
 * The real target of a wrapped link, peeling nested wrappers (Safe Links around
 * Proofpoint, ...) up to MAX_UNWRAP_DEPTH. Only the services' own hosts are unwrapped,
 * matched exactly or by dot-suffix (`safelinks.protection.outlook.com.evil.example` is
 * not one); the target is percent-decoded exactly once. Never throws; linear in the
 * input; never returns a longer URL than it was given. The decoded target is NOT
 * checked here: it goes through the same checks as any other link.
 *
 * @example
 * unwrap('https://urldefense.com/v3/__https://evil.example/a__;!!AbC!x$');
 * // { url: 'https://evil.example/a', layers: ['proofpoint'] }
 */
export function unwrap(url: string): Unwrapped {
  const layers: WrapperId[] = [];
  let current = url;
  for (;;) {
    const step = peelOnce(current);
    if (step === undefined) return { url: current, layers };
    if ('opaque' in step) return { url: current, layers, opaque: step.opaque };
    if (layers.length === MAX_UNWRAP_DEPTH) return { url: current, layers, opaque: step.id };
    layers.push(step.id);
    current = step.peeled;
  }
}

/** An http(s) URL in text: up to whitespace, a quote or an angle bracket. */
const URL_IN_TEXT = /https?:\/\/[^\s"'<>]+/gi;

/** `.,;:!?)]}'"*`: they end a sentence rather than a URL. */
const TRAILING = '.,;:!?)]}\'"*';

/**
 * Text with every wrapped http(s) URL in it replaced by its real target; all else kept
 * as it is. For text already refanged (`unwrapText(refang(text))`). Linear.
 */
export function unwrapText(text: string): string {
  return text.replace(URL_IN_TEXT, (found) => {
    let end = found.length;
    while (end > 0 && TRAILING.includes(found.charAt(end - 1))) end--;
    const result = unwrap(found.slice(0, end));
    return result.layers.length === 0 ? found : result.url + found.slice(end);
  });
}
