/**
 * An Outlook .msg (an OLE compound file, [MS-OXMSG]) read with @kenjiuno/msgreader: the
 * maintained reader of the format in JavaScript, for the browser and Node. It gives the
 * sender, subject, plain body, HTML body (PidTagHtml) and attachments, embedded messages
 * included (which are read again, as messages of their own).
 */
import MsgReaderImport from '@kenjiuno/msgreader';

import { charsetOfCodePage, codePageLabel, decodeText, fixC1 } from './charset';
import { headerList, sender, type Attached, type Letter } from './letter';

type MsgReaderClass = typeof MsgReaderImport;
// The package is CommonJS: bundlers give its default export, Node's ESM loader the module object holding it.
const MsgReader: MsgReaderClass = (MsgReaderImport as unknown as { default?: MsgReaderClass }).default ?? MsgReaderImport;

/** A date the reader gives, as ISO 8601 when it can be read. */
function isoDate(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : new Date(time).toISOString();
}

/** The message in a compound file, or null when the file is a compound file of another kind (a .doc). Throws on a damaged file. */
export function readMsg(bytes: Uint8Array): Letter | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let reader = new MsgReader(view);
  let data = reader.getFileData();
  if (data.error !== undefined) return null;
  // The reader decodes 8-bit strings as UTF-8 unless told their code page, which the message
  // itself records (PidTagMessageCodepage): read again with it where it says another one.
  const ansi = codePageLabel(data.messageCodepage ?? data.internetCodepage);
  if (ansi !== undefined && ansi !== 'utf-8' && ansi !== 'utf-7' && !ansi.startsWith('utf-16')) {
    const again = new MsgReader(view);
    again.parserConfig = { ansiEncoding: ansi };
    try {
      data = again.getFileData();
      reader = again;
    } catch {
      // A code page the reader's decoder does not know: the strings stay as first read.
    }
  }
  // PidTagHtml is bytes in the message's internet code page (65000 is UTF-7); an unknown one is read as ./charset falls back, and said.
  const decoded =
    data.bodyHtml === undefined && data.html !== undefined ? decodeText(data.html, charsetOfCodePage(data.internetCodepage ?? data.messageCodepage)) : null;
  const html = data.bodyHtml ?? decoded?.text ?? null;
  // A compound file with no message class, subject or body is some other document (or an empty shell).
  if (data.messageClass === undefined && data.subject === undefined && data.body === undefined && html === null) return null;
  const attachments: Attached[] = [];
  for (const fields of data.attachments ?? []) {
    const { fileName, content } = reader.getAttachment(fields);
    attachments.push({
      name: fileName,
      mimeType: fields.innerMsgContent === true ? 'application/vnd.ms-outlook' : (fields.attachMimeTag ?? '').toLowerCase(),
      bytes: content,
    });
  }
  return {
    headers: headerList(data.headers ?? ''),
    from: fixC1(sender(data.senderName, data.senderSmtpAddress ?? data.senderEmail)),
    subject: fixC1(data.subject ?? null),
    date: isoDate(data.messageDeliveryTime ?? data.clientSubmitTime),
    html,
    text: data.body ?? null,
    attachments,
    unknownCharsets: decoded?.unknown == null ? [] : [{ part: 'html', ...decoded.unknown }],
  };
}
