/**
 * A message as the link reader needs it, whatever its format: who sent it, its subject and
 * date, its HTML and text bodies, and the attachments that may hold links. The MIME and
 * Outlook readers (./mime, ./msg) each give one.
 */

/** One header field as the message holds it: its name in lower case, its value unfolded and otherwise as written. */
export interface MailHeader {
  readonly key: string;
  readonly value: string;
}

export interface Letter {
  /** Every header of the message, in order, duplicates included (none for a .msg that kept no transport headers). */
  readonly headers: readonly MailHeader[];
  /** "Name <address>", or the address alone; null when the message names no sender. */
  readonly from: string | null;
  readonly subject: string | null;
  /** ISO 8601 when the date could be read, else as written; null when there is none. */
  readonly date: string | null;
  readonly html: string | null;
  readonly text: string | null;
  readonly attachments: readonly Attached[];
  /** Parts written in a charset no table of ./charset knows, read anyway; absent or empty when there is none. */
  readonly unknownCharsets?: readonly CharsetNote[];
}

/** A part of a message in a charset the reader does not know, and what it was read as instead. */
export interface CharsetNote {
  /** The body (`html`, `text`) or the header (`subject`, `from`) the label was on. */
  readonly part: 'html' | 'text' | 'subject' | 'from';
  readonly label: string;
  readonly readAs: string;
}

export interface Attached {
  /** The file name as the message gives it ("" when it gives none). */
  readonly name: string;
  /** The declared type, lower case ("" when none). */
  readonly mimeType: string;
  /** The charset the part declares (its Content-Type's `charset`), when it declares one. */
  readonly charset?: string | undefined;
  readonly bytes: Uint8Array;
}

/**
 * The fields of a header block (RFC 5322): lines that start with white space continue the
 * field before them; a line without a colon, or before the first field, is skipped. For
 * the transport headers an Outlook .msg keeps as one text.
 */
export function headerList(text: string): MailHeader[] {
  const fields: MailHeader[] = [];
  let current: { key: string; value: string } | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (line === '') {
      if (current !== null) break;
      continue;
    }
    if (/^[\t ]/.test(line)) {
      if (current !== null) current.value += line;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    current = { key: line.slice(0, colon).trim().toLowerCase(), value: line.slice(colon + 1) };
    fields.push(current);
  }
  return fields.map(({ key, value }) => ({ key, value: value.trim() }));
}

/** "Name <address>", the address alone, or the name alone. */
export function sender(name: string | undefined, address: string | undefined): string | null {
  const who = (name ?? '').trim();
  const at = (address ?? '').trim();
  if (who !== '' && at !== '' && who !== at) return `${who} <${at}>`;
  return at !== '' ? at : who !== '' ? who : null;
}

/** The first bytes of an OLE compound file: an Outlook .msg is one. */
const COMPOUND_FILE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

export function isCompoundFile(bytes: Uint8Array): boolean {
  return COMPOUND_FILE.every((byte, i) => bytes[i] === byte);
}

/** Header names a mail starts with (one of them, on its first line). */
const FIRST_HEADER =
  /^(?:received|return-path|from|to|delivered-to|mime-version|message-id|date|subject|sender|reply-to|dkim-signature|arc-[\w-]+|authentication-results|x-[\w-]+):/i;

/**
 * The format a file is in when it is a mail, judged by its first bytes and its name
 * (`.eml`, `.msg`); null for anything else (a list of links, a CSV file).
 */
export function mailFormatOf(bytes: Uint8Array, name = ''): 'eml' | 'msg' | null {
  if (isCompoundFile(bytes)) return 'msg';
  const lower = name.toLowerCase();
  if (lower.endsWith('.msg')) return 'msg';
  if (lower.endsWith('.eml')) return 'eml';
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 256)).trimStart();
  return FIRST_HEADER.test(head) ? 'eml' : null;
}
