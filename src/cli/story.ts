/**
 * The sender's story of a mail in the command's words (English, one fact a line): who
 * reported it, who sent it, where replies and bounces go when that is another domain, the
 * checks at receipt and the hop it came in by. Every value is the mail's text, made
 * printable.
 */
import { AUTH_METHODS, type MailAddress, type MailReport, type SenderWarning } from '../readers';
import { printable } from './mails';

/** Each warning in words. */
const SENDER_WARNINGS: { readonly [W in SenderWarning]: string } = {
  nameHoldsAddress: "the display name holds an address on another domain than the sender's",
  nameHoldsDomain: "the display name names another domain than the sender's",
  replyToDomain: "replies would go to another domain than the sender's",
  returnPathDomain: "bounces go to another domain than the sender's",
};

/** An address as written, with an IDN domain's Unicode form beside it. */
function addressText(address: MailAddress): string {
  const written = address.name === null ? address.address : `${address.name} <${address.address}>`;
  return printable(address.unicodeDomain === null ? written : `${written} (${address.domain ?? ''} reads as "${address.unicodeDomain}")`);
}

/** The checks at receipt as `spf=pass dkim=none …`, or null when the mail states none. */
function verdictText(mail: MailReport): string | null {
  const { auth } = mail.sender;
  const stated = AUTH_METHODS.filter((method) => auth[method] !== null).map((method) => `${method}=${auth[method] ?? ''}`);
  return stated.length === 0 ? null : printable(stated.join(' '));
}

/** The story, a fact a line. */
export function storyLines(mail: MailReport): string[] {
  const { sender, reportedBy } = mail;
  const lines: string[] = [];
  if (reportedBy !== null) lines.push(`Reported by: ${addressText(reportedBy)}; the original mail:`);
  if (sender.from !== null) lines.push(`Sender: ${addressText(sender.from)}`);
  if (sender.replyTo !== null && sender.warnings.includes('replyToDomain')) lines.push(`Reply-To: ${addressText(sender.replyTo)}`);
  if (sender.returnPath !== null && sender.warnings.includes('returnPathDomain')) lines.push(`Return-Path: ${addressText(sender.returnPath)}`);
  const verdicts = verdictText(mail);
  lines.push(
    verdicts === null
      ? 'Checks at receipt: not stated (no Authentication-Results)'
      : `Checks at receipt: ${verdicts}${sender.authBy === null ? '' : ` (by ${printable(sender.authBy)})`}`,
  );
  const hop = sender.received;
  if (hop !== null) lines.push(`Came in from: ${printable(`${hop.from ?? '?'} [${hop.ip ?? '?'}] to ${hop.by ?? '?'}`)}`);
  for (const warning of sender.warnings) lines.push(`Warning: ${SENDER_WARNINGS[warning]}.`);
  return lines;
}
