/**
 * The links of a mail as one list: each link resolved once by the one resolver
 * (src/resolve), listed once per target in the order first met, with every place it was
 * found and whether any of its shown texts lies about where it goes.
 */
import type { WrapperId } from '../fang';
import type { TargetUrlProblemCode } from '../net/url';
import { resolveLink, type Resolved, type UnwrapMode } from '../resolve';

import { isMismatch } from './hosts';

/** Why a link is not isolated: the resolver's refusal, in its words and as data. */
export interface LinkRefusal {
  readonly code: TargetUrlProblemCode;
  /** English words for developers; the extension says `code` with `params` in the analyst's language. */
  readonly reason: string;
  readonly params: readonly string[];
}

/** One link of a mail. */
export interface MailLink {
  /**
   * The link as the mail wrote it, after MIME and HTML-entity decoding: made absolute
   * against the HTML's `<base>` when it was relative, and refanged when it was found in
   * text (so it can be given to the resolver again).
   */
  readonly url: string;
  /** What would be isolated: the real target after refang, unwrap and checks; null when refused. */
  readonly target: string | null;
  /** Set when `target` is null: why the link is refused (`javascript:`, `data:`, not absolute…). */
  readonly refused?: LinkRefusal;
  /** The anchor's visible text (whitespace collapsed, at most 200 characters) or its image's alt; null for a bare URL. */
  readonly shown: string | null;
  /** `shown` names a host (a URL or a domain) whose registrable domain differs from the target's. */
  readonly mismatch: boolean;
  /** Every place it was found, in order: `html`, `text`, `attachment:<file name>`, `message:<subject>`, `qr:<image name>` (a code in an image). */
  readonly where: readonly string[];
  /**
   * True when it was found only in scripts (a `<script>`, an event handler attribute) of
   * the places in `where`, read as text and never run: the page would go there when opened
   * in a browser, the mail shows it nowhere. False when any place showed it as a link or text.
   */
  readonly scriptOnly: boolean;
  /** The wrappers around it (mail gateways, redirectors), outermost first; the last is the target itself when `opaque`. */
  readonly wrappedBy: readonly WrapperId[];
  /** The target is a wrapper that cannot be decoded offline (Mimecast): the isolated browser must follow it. */
  readonly opaque: boolean;
}

interface Row {
  url: string;
  target: string | null;
  refused?: LinkRefusal;
  shown: string | null;
  mismatch: boolean;
  where: string[];
  scriptOnly: boolean;
  wrappedBy: readonly WrapperId[];
  opaque: boolean;
}

/** What a resolution comes to for a reader's caller: the target or the refusal, and the wrappers peeled. */
/** A link as the command's `--json` rows and the case record give it: its fields, in this order, `refused` only when refused. */
export function linkRecord(link: MailLink): MailLink {
  return {
    url: link.url,
    target: link.target,
    shown: link.shown,
    mismatch: link.mismatch,
    where: link.where,
    scriptOnly: link.scriptOnly,
    wrappedBy: link.wrappedBy,
    opaque: link.opaque,
    ...(link.refused === undefined ? {} : { refused: link.refused }),
  };
}

export interface Outcome {
  readonly target: string | null;
  readonly refused?: LinkRefusal;
  readonly wrappedBy: readonly WrapperId[];
  readonly opaque: boolean;
}

/** A link's outcome as the readers list it: what would be isolated, or why nothing is. */
export function outcomeOf(resolved: Resolved): Outcome {
  if (!resolved.ok) return { target: null, refused: { code: resolved.code, reason: resolved.reason, params: resolved.params }, wrappedBy: [], opaque: false };
  const { target } = resolved;
  return {
    target: target.url.href,
    wrappedBy: target.wrapper === undefined ? target.layers : [...target.layers, target.wrapper],
    opaque: target.opaque === true,
  };
}

interface Resolution {
  readonly resolved: Resolved;
  /** The row it belongs to: its target, or the link itself when refused. */
  readonly key: string;
  readonly host: string | null;
}

/** Collects links as they are met; `list()` gives them in first-met order. */
export class LinkList {
  readonly #rows = new Map<string, Row>();
  readonly #resolved = new Map<string, Resolution>();
  readonly #mismatches = new Map<string, boolean>();
  readonly #mode: UnwrapMode;
  readonly #max: number;
  /** Links met after the list was full. */
  dropped = 0;

  constructor(mode: UnwrapMode, max: number) {
    this.#mode = mode;
    this.#max = max;
  }

  /** The resolution of a link, once per distinct link: its row key and its target's host with it. */
  #resolve(url: string): Resolution {
    let resolution = this.#resolved.get(url);
    if (resolution === undefined) {
      const resolved = resolveLink(url, this.#mode);
      resolution = resolved.ok
        ? { resolved, key: `t ${resolved.target.url.href}`, host: resolved.target.url.hostname }
        : { resolved, key: `r ${url}`, host: null };
      this.#resolved.set(url, resolution);
    }
    return resolution;
  }

  /** Whether a shown text lies about a host, once per distinct pair. */
  #lies(shown: string, host: string): boolean {
    const pair = `${host} ${shown}`;
    let lies = this.#mismatches.get(pair);
    if (lies === undefined) {
      lies = isMismatch(shown, host);
      this.#mismatches.set(pair, lies);
    }
    return lies;
  }

  /** A link met at `where`, with the text it showed (null for a bare URL); `script` when a script named it. */
  add(url: string, shown: string | null, where: string, script = false): void {
    const { resolved, key, host } = this.#resolve(url);
    const mismatch = host !== null && shown !== null && this.#lies(shown, host);
    const row = this.#rows.get(key);
    if (row !== undefined) {
      if (!row.where.includes(where)) row.where.push(where);
      if (!script) row.scriptOnly = false;
      if (mismatch && !row.mismatch) {
        row.mismatch = true;
        row.shown = shown;
      } else if (row.shown === null) row.shown = shown;
      return;
    }
    if (this.#rows.size >= this.#max) {
      this.dropped++;
      return;
    }
    const { target, refused, wrappedBy, opaque } = outcomeOf(resolved);
    this.#rows.set(key, { url, target, ...(refused === undefined ? {} : { refused }), shown, mismatch, where: [where], scriptOnly: script, wrappedBy, opaque });
  }

  list(): MailLink[] {
    return [...this.#rows.values()];
  }
}
