/**
 * What a decoded code's text is: a link to isolate, or something only shown (a Wi-Fi
 * network, a contact, a mail address, a phone number, plain text). The text is hostile:
 * only what the one resolver accepts is ever isolated, and nothing that is not a link is
 * opened, as a phone's camera would open it.
 */
import { refang } from '../fang';
import { linkInText, resolveLink, type UnwrapMode } from '../resolve';

import { outcomeOf, type Outcome } from './found';

/** What a code can hold. Only a `link` is ever isolated; the others are shown as text. */
export const CODE_KINDS = ['link', 'wifi', 'contact', 'email', 'phone', 'sms', 'event', 'place', 'text'] as const;

/** What a code holds: one of CODE_KINDS. */
export type CodeKind = (typeof CODE_KINDS)[number];

/** The kinds a code's first characters name, as phones' camera apps read them. */
const SHOWN_ONLY: readonly (readonly [RegExp, CodeKind])[] = [
  [/^wifi:/i, 'wifi'],
  [/^(?:begin:vcard|mecard:|bizcard:)/i, 'contact'],
  [/^(?:mailto:|matmsg:|smtp:)/i, 'email'],
  [/^tel:/i, 'phone'],
  [/^(?:sms|smsto|mms|mmsto):/i, 'sms'],
  [/^begin:(?:vevent|vcalendar)/i, 'event'],
  [/^geo:/i, 'place'],
];

/** A scheme at the start of a text (`https:`, `javascript:`). */
const SCHEME = /^[a-z][\d+.a-z-]*:/i;

/** The value of a MEBKM bookmark's `URL:` field, its `\` escapes undone; null when it has none. */
function bookmarkUrl(body: string): string | null {
  let field = '';
  let escaped = false;
  for (const char of `${body};`) {
    if (escaped) {
      field += char;
      escaped = false;
    } else if (char === '\\') escaped = true;
    else if (char !== ';') field += char;
    else if (/^url:/i.test(field)) return field.slice(4);
    else field = '';
  }
  return null;
}

/**
 * A host written alone, with a port or a path after it (`evil.example/login`, `192.0.2.7:8080`):
 * a link to phones' cameras, and so to Isolink. The last label is a name (letters), or the
 * whole host four numbers.
 */
const BARE_HOST = /^(?:(?:[\da-z](?:[\da-z-]{0,61}[\da-z])?\.)+[a-z][\da-z-]{1,62}|\d{1,3}(?:\.\d{1,3}){3})(?::\d{1,5})?(?:[/?#]\S*)?$/i;

/** A link written without a scheme (`URLTO:evil.example/x`) is an http link, as phones open it. */
function withScheme(link: string): string {
  return SCHEME.test(link) && !/^[^:]+:\d/.test(link) ? link : `http://${link}`;
}

/** The link a code's text gives, or null when the text is not a link (words, a number). */
function linkOf(text: string): string | null {
  if (/^urlto:/i.test(text)) return withScheme(text.slice(6).trim());
  if (/^mebkm:/i.test(text)) {
    const url = bookmarkUrl(text.slice(6));
    return url === null ? null : withScheme(url.trim());
  }
  // A link is the whole text: a code that says "visit https://…" is words, as a phone shows it.
  if (/\s/.test(text)) return null;
  const refanged = refang(text);
  if (BARE_HOST.test(refanged)) return `http://${refanged}`;
  return SCHEME.test(refanged) ? linkInText(text) : null;
}

/** A decoded code's meaning: its kind, and for a link what would be isolated. */
export interface Meaning extends Outcome {
  readonly kind: CodeKind;
  /** The link the code gives (from `URLTO:`, `MEBKM:`, or the text itself, refanged); null unless `kind` is `link`. */
  readonly url: string | null;
}

const NOT_A_LINK = { url: null, target: null, wrappedBy: [], opaque: false } as const;

/** What a code's text means, and for a link its target through the one resolver. */
export function meaningOf(text: string, mode: UnwrapMode): Meaning {
  const trimmed = text.trim();
  for (const [prefix, kind] of SHOWN_ONLY) if (prefix.test(trimmed)) return { kind, ...NOT_A_LINK };
  const url = linkOf(trimmed);
  if (url === null) return { kind: 'text', ...NOT_A_LINK };
  return { kind: 'link', url, ...outcomeOf(resolveLink(url, mode)) };
}
