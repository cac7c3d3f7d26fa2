/**
 * The files a reported mail carries, as a ticket needs them: name, declared and detected
 * type, size and SHA-256, the hash a sandbox, a threat-intelligence lookup or a block list
 * takes. Hashing reads the bytes and runs nothing.
 */
import { KIND_TYPES, fileType } from './kinds';
import type { Attached } from './letter';

/** One file of the mail (an attachment, an inline part, an attached message), at any depth. */
export interface MailAttachment {
  /** The file name as the mail gives it, on one line ("" when it gives none). */
  readonly name: string;
  /** The declared MIME type, lower case ("" when none). */
  readonly type: string;
  /** The MIME type told from the content; null when its first bytes say nothing known. */
  readonly detected: string | null;
  /** True when the name or the declared type claims another kind than the content (an HTML page named `.pdf`). */
  readonly disguised: boolean;
  /** Size in bytes, decoded. */
  readonly size: number;
  /** SHA-256 of the decoded bytes, 64 lower-case hex digits. */
  readonly sha256: string;
  /** The message it was attached to: `mail` for the top one, else `message:<subject>`. */
  readonly where: string;
}

function hex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** SHA-256 of some bytes as lower-case hex, by the platform's Web Crypto (the browser's and Node's alike). */
async function sha256Hex(bytes: Uint8Array): Promise<string> {
  // The readers' bytes are never shared memory; Web Crypto's type asks that they say so.
  return hex(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
}

/** A file of the mail described for the list; `name` already made one line by the caller. */
export async function describeFile(attachment: Attached, name: string, where: string): Promise<MailAttachment> {
  const type = fileType(attachment.bytes, attachment.name, attachment.mimeType);
  return {
    name,
    type: attachment.mimeType,
    detected: type.detected === null ? null : KIND_TYPES[type.detected],
    disguised: type.disguised,
    size: attachment.bytes.length,
    sha256: await sha256Hex(attachment.bytes),
    where,
  };
}
