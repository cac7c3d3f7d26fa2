/**
 * A MIME message (.eml, message/rfc822) read with postal-mime: made for the job, no
 * dependencies, the same code in the browser and Node, with guards against nesting and
 * header bombs that Isolink sets to its own limits.
 */
import PostalMime from 'postal-mime';

import { fixC1 } from './charset';
import { sender, type Attached, type Letter } from './letter';
import { MAIL_LIMITS } from './limits';

/** Headers of which a mail has at least one; text without any is not a mail. */
const MAIL_HEADERS = new Set(['from', 'to', 'subject', 'date', 'message-id', 'mime-version', 'received', 'return-path', 'content-type', 'sender', 'reply-to']);

/** Bytes a text mail never holds: NUL in its first 4 kB means a binary file, not a mail. */
function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, 4096).includes(0);
}

/** The message, or null when the bytes are not a mail. Throws what postal-mime throws at its limits. */
export async function readMime(bytes: Uint8Array): Promise<Letter | null> {
  if (bytes.length === 0 || looksBinary(bytes)) return null;
  const email = await PostalMime.parse(bytes, {
    // Every attached message stays an attachment: Isolink reads it itself, with its own depth bound and place name.
    forceRfc822Attachments: true,
    maxRfc822NestingDepth: 0,
    maxNestingDepth: MAIL_LIMITS.mimeDepth,
    maxHeadersSize: MAIL_LIMITS.headerBytes,
    attachmentEncoding: 'arraybuffer',
  });
  if (!email.headers.some((header) => MAIL_HEADERS.has(header.key))) return null;
  const from =
    email.from === undefined
      ? null
      : 'group' in email.from && email.from.group
        ? sender(email.from.name, email.from.group[0]?.address)
        : sender(email.from.name, email.from.address);
  const attachments: Attached[] = email.attachments.map((attachment) => ({
    name: attachment.filename ?? '',
    mimeType: attachment.mimeType.toLowerCase(),
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
    subject: fixC1(email.subject ?? null),
    date: email.date ?? null,
    html: email.html ?? null,
    text: email.text ?? null,
    attachments,
  };
}
