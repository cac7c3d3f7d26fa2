/**
 * The one way from what the analyst clicked, selected, typed or pasted to the target(s)
 * Isolink isolates. The background acts on it; the popup's preview and the bulk list show
 * it; so what is shown is what is isolated. Pure and zod-free: pages load it too.
 *
 * A target is refanged (typed text only: a browser's link is judged as it is), unwrapped
 * when a mail gateway or redirector rewrote it (as the settings say), and checked: the
 * link as given and the URL isolated each pass checkTargetUrl once.
 */
import { extractUrls, refang, unwrap, type WrapperId } from '../fang';
import { checkTargetUrl, type CheckedUrl, type TargetUrlProblemCode, type UrlProblem } from '../net/url';

import type { UnwrapMode } from './modes';

export { UNWRAP_MODES, type UnwrapMode } from './modes';

export interface Target {
  /** What is isolated: an absolute http(s) URL with a host, checked once (see checkTargetUrl). */
  readonly url: CheckedUrl;
  /** The link as it was given (refanged when typed). */
  readonly given: string;
  /** The wrappers peeled from `given` to reach `url`, outermost first. */
  readonly layers: readonly WrapperId[];
  /**
   * Set when `url` is itself a wrapper: one that cannot be decoded offline (Mimecast) or
   * one kept by the settings. The isolated browser must follow its redirect, so no
   * automatic domain_allow is added for its host.
   */
  readonly wrapper?: WrapperId;
  /** Set with `wrapper` when that wrapper cannot be decoded offline (not merely kept by the settings). */
  readonly opaque?: true;
  /** Set when the link is wrapped and the settings say to ask: the wrapper, the other choice. */
  readonly choice?: { readonly url: CheckedUrl; readonly wrapper: WrapperId };
}

/** A refusal of the link as given or of the target inside it; `given` is what was refused. */
export type Refusal = UrlProblem<TargetUrlProblemCode> & { readonly given: string };

export type Resolved = { readonly ok: true; readonly target: Target } | Refusal;

function refusal(problem: UrlProblem<TargetUrlProblemCode>, given: string): Refusal {
  return { ...problem, given };
}

/** A link the browser gave (a link, a page address) or one found in text: checked, then unwrapped as `mode` says. */
export function resolveLink(link: string, mode: UnwrapMode): Resolved {
  const given = checkTargetUrl(link);
  if (!given.ok) return refusal(given, link);
  const found = unwrap(given.url.href);
  const outer = found.layers[0] ?? found.opaque;
  if (found.layers.length === 0 || mode === 'keep') {
    // Not wrapped, wrapped in a way that cannot be read, or kept as it is.
    const target: Target =
      outer === undefined
        ? { url: given.url, given: link, layers: [] }
        : { url: given.url, given: link, layers: [], wrapper: outer, ...(found.layers.length === 0 ? { opaque: true as const } : {}) };
    return { ok: true, target };
  }
  const inner = checkTargetUrl(found.url);
  // A wrapped javascript: or data: URL is refused like any other.
  if (!inner.ok) return refusal(inner, found.url);
  const target: Target = {
    url: inner.url,
    given: link,
    layers: found.layers,
    ...(found.opaque === undefined ? {} : { wrapper: found.opaque, opaque: true as const }),
    ...(mode === 'ask' && outer !== undefined ? { choice: { url: given.url, wrapper: outer } } : {}),
  };
  return { ok: true, target };
}

/** The scheme text starts with (`javascript`, `IOC`, `https`), if any. */
const LEADING_SCHEME = /^([a-z][\d+.a-z-]*):/i;

/** Schemes whose text is refused whole, however it is spaced: never mined for a link inside. */
const NEVER_MINED = new Set(['javascript', 'vbscript', 'data', 'blob', 'file', 'filesystem', 'about', 'chrome', 'view-source']);

/**
 * The link in text the analyst typed or pasted, defanged or not. Text that is a URL of
 * another scheme is judged as that URL (a `javascript:`, `data:` or `blob:` URL is
 * refused, never mined for a link inside it); otherwise the text is refanged and its
 * first http(s) link taken ("IOC: hxxp://…", "hxxp://… (phishing)").
 */
export function linkInText(text: string): string {
  const refanged = refang(text.trim());
  // The scheme as the URL parser reads it: leading controls and spaces dropped, tabs and
  // newlines inside removed (`java\tscript:` is javascript:).
  // eslint-disable-next-line no-control-regex -- the URL parser strips exactly these
  const spelled = refanged.replace(/^[\u0000-\u0020]+/, '').replace(/[\t\n\r]/g, '');
  const scheme = LEADING_SCHEME.exec(spelled)?.[1]?.toLowerCase();
  if (scheme !== undefined && NEVER_MINED.has(scheme)) return refanged;
  // Another scheme glued to what follows is a URL (refused by the check); "IOC: …" is a label.
  const glued = scheme !== undefined && !/^\s/.test(spelled.slice(scheme.length + 1));
  if (glued && scheme !== 'http' && scheme !== 'https' && URL.canParse(refanged)) return refanged;
  return extractUrls(refanged)[0] ?? refanged;
}

/** Text the analyst typed or pasted (popup, omnibox): its one link, resolved. */
export function resolveText(text: string, mode: UnwrapMode): Resolved {
  return resolveLink(linkInText(text), mode);
}

/** Links from a list (a feed, a selection), each with its resolution, in order; a repeat of a target already there is left out. */
export function resolveLinks(links: Iterable<string>, mode: UnwrapMode): { readonly link: string; readonly resolved: Resolved }[] {
  const out: { readonly link: string; readonly resolved: Resolved }[] = [];
  const seen = new Set<string>();
  for (const link of links) {
    const resolved = resolveLink(link, mode);
    if (resolved.ok) {
      // Two wrappers of one target are one target.
      const key = `${resolved.target.url.href} ${resolved.target.wrapper ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
    }
    out.push({ link, resolved });
  }
  return out;
}

/** Every link in a selection or pasted list, each resolved; refusals are kept beside the targets. */
export function resolveAll(text: string, mode: UnwrapMode): { readonly targets: Target[]; readonly refused: Refusal[] } {
  const targets: Target[] = [];
  const refused: Refusal[] = [];
  for (const { resolved } of resolveLinks(extractUrls(text), mode)) {
    if (resolved.ok) targets.push(resolved.target);
    else refused.push(resolved);
  }
  return { targets, refused };
}

/** The target as the analyst chose it when asked: the real target (as resolved), or the wrapper itself. */
export function chooseWrapper(target: Target): Target {
  if (!target.choice) return target;
  return { url: target.choice.url, given: target.given, layers: [], wrapper: target.choice.wrapper };
}

/**
 * Whether the automatic domain_allow may name the target's host. A wrapper the isolated
 * browser must follow (opaque, or kept by the settings) gets none: it would block the redirect.
 */
export function allowsOwnDomain(target: Target): boolean {
  return target.wrapper === undefined;
}

/**
 * Targets as bulk creation sends them: real targets (each with its own domain_allow when
 * the caller wants it) in one group, wrappers to follow in another, so a list with both
 * kinds takes two requests and a list with one kind takes one. Input order is kept in
 * each group; empty groups are left out.
 */
export function bulkGroups(targets: readonly Target[]): { readonly targets: readonly Target[]; readonly ownDomain: boolean }[] {
  const own = targets.filter(allowsOwnDomain);
  const follow = targets.filter((target) => !allowsOwnDomain(target));
  return [...(own.length > 0 ? [{ targets: own, ownDomain: true }] : []), ...(follow.length > 0 ? [{ targets: follow, ownDomain: false }] : [])];
}
