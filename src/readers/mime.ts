/**
 * A MIME message (.eml, message/rfc822) read with postal-mime: made for the job, no
 * dependencies, the same code in the browser and Node, with guards against nesting and
 * header bombs that Isolink sets to its own limits.
 */
import PostalMime, { addressParser, decodeWords, type Attachment } from 'postal-mime';

import { decodeBytes, fixC1, isDecoderLabel } from './charset';
import { sender, type Attached, type CharsetNote, type Letter } from './letter';
import { MAIL_LIMITS } from './limits';
import { rewriteWords } from './words';

/** Headers of which a mail has at least one; text without any is not a mail. */
const MAIL_HEADERS = new Set(['from', 'to', 'subject', 'date', 'message-id', 'mime-version', 'received', 'return-path', 'content-type', 'sender', 'reply-to']);

/** Bytes a text mail never holds: NUL in its first 4 kB means a binary file, not a mail. */
function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 4096).includes(0);
}

/**
 * What the hook below reads of postal-mime's parts and parser. These are internals, left
 * out of its published types: package.json pins postal-mime to exactly 4.0.0 for them, and
 * test/unit/mail-charset.test.ts fails if an upgrade moves them.
 */
interface MimePart {
  readonly contentType: {
    readonly parsed: { readonly value: string; readonly params: Record<string, string | undefined> };
    readonly multipart: string | false;
  };
  readonly contentDisposition: { readonly parsed: { readonly value: string } };
  content: ArrayBuffer | null;
}
interface ParserInternals {
  collectNode(node: MimePart, alternative: unknown, related: boolean): Promise<void>;
  readonly attachments: Attachment[];
}
const internals = PostalMime.prototype as unknown as ParserInternals;

/**
 * postal-mime with one hook on its charsets. postal-mime decodes a text part with
 * TextDecoder and reads a label TextDecoder refuses as windows-1252, without a word: a part
 * in UTF-7 (RFC 2152, a known filter evasion Outlook renders) keeps its `+ADw-a href…`
 * markup, and no link of it is found. `collectNode` is where postal-mime turns each part
 * of the parsed tree into a body or an attachment; before it reads an inline text part
 * whose label TextDecoder refuses, the hook decodes the bytes itself (./charset: UTF-7, the
 * aliases mail clients write, the fallback for an unknown label, noted) and hands
 * postal-mime the same text as UTF-8, which it then reads as it reads any part (flowed
 * text included). An attachment keeps its bytes; the hook notes its charset parameter,
 * which postal-mime drops, so an attached page is read in it (./mail). Nothing else of
 * postal-mime changes, and node_modules is not patched.
 */
class CharsetParser extends PostalMime {
  readonly notes: CharsetNote[] = [];
  readonly charsets = new Map<Attachment, string>();

  /** postal-mime's own, with the charset hook around it for a part that is not a multipart. */
  async collectNode(node: MimePart, alternative: unknown, related: boolean): Promise<void> {
    if (node.contentType.multipart !== false) return internals.collectNode.call(this, node, alternative, related);
    const { attachments } = this as unknown as ParserInternals;
    const before = attachments.length;
    const label = node.contentType.parsed.params.charset;
    const type = node.contentType.parsed.value;
    const inlineText = (type === 'text/plain' || type === 'text/html') && node.contentDisposition.parsed.value !== 'attachment';
    if (inlineText && label !== undefined && node.content !== null && !isDecoderLabel(label)) {
      const decoded = decodeBytes(new Uint8Array(node.content), label);
      if (decoded.unknown !== null) this.notes.push({ part: type === 'text/html' ? 'html' : 'text', ...decoded.unknown });
      node.content = new TextEncoder().encode(decoded.text).buffer;
      node.contentType.parsed.params.charset = 'utf-8';
    }
    await internals.collectNode.call(this, node, alternative, related);
    if (label !== undefined) for (const attachment of attachments.slice(before)) this.charsets.set(attachment, label);
  }
}

/** A header's value, its encoded words in charsets TextDecoder refuses rewritten (./words), noting the labels no table knew. */
function headerValue(email: { readonly headers: readonly { key: string; value: string }[] }, key: string, notes: CharsetNote[]): string | undefined {
  const value = email.headers.find((header) => header.key === key)?.value;
  if (value === undefined || value === '') return undefined;
  const rewritten = rewriteWords(value);
  for (const unknown of rewritten.unknown) notes.push({ part: key === 'subject' ? 'subject' : 'from', ...unknown });
  return rewritten.value;
}

/** The message, or null when the bytes are not a mail. Throws what postal-mime throws at its limits. */
export async function readMime(bytes: Uint8Array): Promise<Letter | null> {
  if (bytes.length === 0 || looksBinary(bytes)) return null;
  const parser = new CharsetParser({
    // Every attached message stays an attachment: Isolink reads it itself, with its own depth bound and place name.
    forceRfc822Attachments: true,
    maxRfc822NestingDepth: 0,
    maxNestingDepth: MAIL_LIMITS.mimeDepth,
    maxHeadersSize: MAIL_LIMITS.headerBytes,
    attachmentEncoding: 'arraybuffer',
  });
  const email = await parser.parse(bytes);
  if (!email.headers.some((header) => MAIL_HEADERS.has(header.key))) return null;
  const notes = parser.notes;
  // Subject and From as postal-mime makes them, from values whose UTF-7 (and other) words are rewritten first.
  const rawSubject = headerValue(email, 'subject', notes);
  const rawFrom = headerValue(email, 'from', notes);
  const first = rawFrom === undefined ? undefined : addressParser(rawFrom)[0];
  const from = first === undefined ? null : 'group' in first && first.group ? sender(first.name, first.group[0]?.address) : sender(first.name, first.address);
  const attachments: Attached[] = email.attachments.map((attachment) => ({
    name: attachment.filename ?? '',
    mimeType: attachment.mimeType.toLowerCase(),
    charset: parser.charsets.get(attachment),
    bytes:
      attachment.content instanceof ArrayBuffer
        ? new Uint8Array(attachment.content)
        : typeof attachment.content === 'string'
          ? new TextEncoder().encode(attachment.content)
          : new Uint8Array(attachment.content.buffer, attachment.content.byteOffset, attachment.content.byteLength),
  }));
  return {
    headers: email.headers.map(({ key, value }) => ({ key, value })),
    from: fixC1(from),
    subject: fixC1(rawSubject === undefined ? null : decodeWords(rawSubject)),
    date: email.date ?? null,
    html: email.html ?? null,
    text: email.text ?? null,
    attachments,
    unknownCharsets: notes,
  };
}
