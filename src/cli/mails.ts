/**
 * Reported mails as the commands read them: `isolink mail` lists their links (the codes in
 * their images too), and `bulk` takes a mail as it takes a feed. The reading is the library's (src/readers), which
 * sends nothing: only `--open` reads the configuration and talks to the service.
 */
import { nodeDecoder } from '../decoders';
import { nodePdfReader } from '../decoders/pdf';
import { linksInMail, mailFormatOf, type MailFormat, type MailReport } from '../readers';
import type { UnwrapMode } from '../resolve';
import type { Input } from './input';
import { CliError } from './problems';

/**
 * The mail in an input, read with the command's unwrap mode (`ask` has no one to ask here:
 * real targets); a usage error (exit 2) when it is not a mail, too large or damaged.
 */
export async function readMail(input: Input, format: 'auto' | MailFormat, mode: UnwrapMode): Promise<MailReport> {
  // A saved page, SVG or PDF is found at attachment:<its file name>, as in the mail that carried it.
  const name = input.source.slice(Math.max(input.source.lastIndexOf('/'), input.source.lastIndexOf('\\')) + 1);
  const mail = await linksInMail(input.bytes, { format, name, unwrap: mode === 'keep' ? 'keep' : 'unwrap', decoder: nodeDecoder, pdf: nodePdfReader });
  if (!mail.ok) throw new CliError('mailInvalid', input.source, mail.reason);
  return mail;
}

/** Whether `bulk` should read an input as a mail: `--format eml|msg`, or (auto) a mail by its name or first bytes. */
export function mailFormatFor(input: Input, format: string): 'auto' | 'eml' | 'msg' | null {
  if (format === 'eml' || format === 'msg') return format;
  if (format !== 'auto') return null;
  return mailFormatOf(input.bytes, input.source) === null ? null : 'auto';
}

/** Text safe to print on a terminal: a mail's words may carry escape sequences and other controls. */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- exactly the controls a terminal acts on
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '\uFFFD');
}
