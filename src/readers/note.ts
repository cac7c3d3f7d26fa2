/**
 * The case note of a reported mail: what a ticket needs of it, as Markdown (`caseNote`) for
 * people and as one JSON-ready object (`caseRecord`) for scripts. The note is in English,
 * the language tickets are filed in, whoever copies it: the page and the command give the
 * same text. It never holds a live link: every URL, host and address is defanged, and the
 * mail's own words (subject, names, shown texts, file names) are made inert, so that no
 * Markdown renderer makes a link, an image, markup or a line of its own out of them.
 */
import { defang, WRAPPER_NAMES } from '../fang';

import { linkRecord, type MailLink } from './found';
import type { MailReport } from './mail';
import type { MailProblem } from './walk';
import { AUTH_METHODS, type AuthVerdicts } from './auth-methods';
import type { MailAddress, ReceivedHop, SenderWarning } from './sender';

/** One link as the record gives it: the fields of the command's `--json` rows, and the target (or the refused link) defanged. */
export interface CaseLink {
  readonly url: string;
  readonly target: string | null;
  readonly shown: string | null;
  readonly mismatch: boolean;
  readonly where: readonly string[];
  /** True when only scripts named it (read as text, never run). */
  readonly scriptOnly: boolean;
  readonly wrappedBy: MailLink['wrappedBy'];
  readonly opaque: boolean;
  /** Present when `target` is null: why the link is refused. */
  readonly refused?: MailLink['refused'];
  /** The target defanged (the link as written when refused): safe to paste anywhere. */
  readonly defanged: string;
}

/** One file as the record gives it. */
export interface CaseFile {
  readonly name: string;
  /** The declared MIME type ("" when none). */
  readonly type: string;
  readonly size: number;
  readonly sha256: string;
  /** The MIME type told from the content, or null. */
  readonly detected: string | null;
  readonly disguised: boolean;
}

/** A mail's case as one object (`isolink mail --report --json` prints one a line). */
export interface CaseRecord {
  /** The mail's name: its file, or `<file>#<n>` for a message of an mbox. */
  readonly mail: string;
  readonly subject: string | null;
  /** ISO 8601 when it could be read, else as written; null when absent. */
  readonly date: string | null;
  /** The sender (of the original, when the mail is a user's report of it): `Name <address>` or the bare address as written; null when absent. */
  readonly from: string | null;
  readonly replyTo: string | null;
  readonly returnPath: string | null;
  /** The verdicts at receipt, lower case, null where the mail states none. */
  readonly auth: AuthVerdicts;
  /** The hop where the mail entered the receiving side, or null. */
  readonly received: ReceivedHop | null;
  /** Who reported it, when the mail wraps the original, as `from` is written; else null. */
  readonly reportedBy: string | null;
  readonly attachments: readonly CaseFile[];
  readonly links: readonly CaseLink[];
  readonly problems: readonly MailProblem[];
}

/** The note's words for a sender warning. */
const WARNINGS: { readonly [W in SenderWarning]: string } = {
  nameHoldsAddress: "the display name holds an address on another domain than the sender's",
  nameHoldsDomain: "the display name names another domain than the sender's",
  replyToDomain: "replies would go to another domain than the sender's",
  returnPathDomain: "bounces go to another domain than the sender's",
};

/**
 * Control characters (newlines too), line and paragraph separators, and the bidirectional
 * and zero-width format characters that would reorder or hide what a ticket shows.
 */
// eslint-disable-next-line no-control-regex -- exactly the characters a mail may smuggle in
const UNSEEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]+/g;

/** Markdown's inline punctuation (links, images, emphasis, code, tables, strikethrough, maths), escaped by a backslash. */
const MARKDOWN = /[\\`*_[\]()!|~$#{}]/g;

/** A scheme defang left as written (one no URL parser reads as a URL): still never spelled out. */
const WEB_SCHEME = /(h)tt(ps?:)/gi;

/**
 * A dot between a word and a letter that defang left: in a URL's path or query, an address
 * in a query, a host in a parameter. Some trackers link any `name.tld` they see.
 */
const LEFT_DOT = /(?<=[\p{L}\p{N}_-])\.(?=\p{L})/gu;

/**
 * Mail-controlled text made inert for Markdown: on one line, URLs and hosts defanged, HTML
 * written as entities, Markdown's punctuation escaped. Rendered, it reads as the text did
 * (defanged); nothing in it becomes a link, an image or markup.
 */
function inert(text: string): string {
  return defang(text.replace(UNSEEN, ' ').trim())
    .replace(WEB_SCHEME, '$1xx$2')
    .replace(LEFT_DOT, '[.]')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(MARKDOWN, '\\$&');
}

/** An address as written: `Name <address>` or the bare address. */
function written(address: MailAddress | null): string | null {
  if (address === null) return null;
  return address.name === null ? address.address : `${address.name} <${address.address}>`;
}

/** An address for the note, with an IDN domain's Unicode form beside it. */
function addressLine(address: MailAddress): string {
  const text = inert(written(address) ?? '');
  return address.unicodeDomain === null ? text : `${text} (${inert(address.domain ?? '')} reads as "${inert(address.unicodeDomain)}")`;
}

function lower(verdict: string | null): string | null {
  return verdict === null ? null : verdict.toLowerCase();
}

/** One link of the record: the `--json` row's fields, and the target defanged. */
function caseLink(link: MailLink): CaseLink {
  return { ...linkRecord(link), defanged: defang(link.target ?? link.url) };
}

/**
 * A mail's case as one object: who sent it (addresses as written), the checks at receipt,
 * the hop it came in by, its files with their hashes and its links with their flags, each
 * link's target defanged beside the machine-usable one. `name` is the mail's name.
 */
export function caseRecord(report: MailReport, name: string): CaseRecord {
  const { sender } = report;
  return {
    mail: name,
    subject: report.subject,
    date: report.date,
    from: written(sender.from),
    replyTo: written(sender.replyTo),
    returnPath: written(sender.returnPath),
    auth: {
      spf: lower(sender.auth.spf),
      dkim: lower(sender.auth.dkim),
      dmarc: lower(sender.auth.dmarc),
      compauth: lower(sender.auth.compauth),
    },
    received: sender.received,
    reportedBy: written(report.reportedBy),
    attachments: report.attachments.map((file) => ({
      name: file.name,
      type: file.type,
      size: file.size,
      sha256: file.sha256,
      detected: file.detected,
      disguised: file.disguised,
    })),
    links: report.links.map(caseLink),
    problems: report.problems,
  };
}

/** A code span of text that holds no backtick (hex digits, a MIME type the reader checked). */
function code(text: string): string {
  return `\`${text.replace(/[`\s]/g, '')}\``;
}

function senderLines(report: MailReport): string[] {
  const { sender } = report;
  const lines: string[] = [];
  if (sender.from !== null) lines.push(`- From: ${addressLine(sender.from)}`);
  if (sender.replyTo !== null) lines.push(`- Reply-To: ${addressLine(sender.replyTo)}`);
  if (sender.returnPath !== null) lines.push(`- Return-Path: ${addressLine(sender.returnPath)}`);
  const stated = AUTH_METHODS.filter((method) => sender.auth[method] !== null);
  lines.push(
    stated.length === 0
      ? '- Checks at receipt: not stated (no Authentication-Results)'
      : `- Checks at receipt: ${stated.map((method) => `${method}=${inert(sender.auth[method] ?? '')}`).join(', ')}${sender.authBy === null ? '' : ` (by ${inert(sender.authBy)})`}`,
  );
  const hop = sender.received;
  if (hop !== null)
    lines.push(
      `- Came in from: ${inert(hop.from ?? '?')} \\[${inert(hop.ip ?? '?')}\\] to ${inert(hop.by ?? '?')}${hop.date === null ? '' : ` at ${inert(hop.date)}`}`,
    );
  for (const warning of sender.warnings) lines.push(`- **Warning:** ${WARNINGS[warning]}`);
  return lines;
}

/** A link's line: its target defanged (or the refused link and why), its flags, the text it showed, where it was found. */
function linkLine(link: MailLink, index: number): string {
  const flags: string[] = [];
  if (link.mismatch) flags.push('**MISMATCH**');
  if (link.scriptOnly) flags.push('**IN A SCRIPT** (never run)');
  if (link.wrappedBy.length > 0)
    flags.push(`wrapped by ${link.wrappedBy.map((id) => inert(WRAPPER_NAMES[id])).join(', ')}${link.opaque ? ' (not decodable)' : ''}`);
  const head = link.target === null ? `refused: ${inert(link.url)}${link.refused === undefined ? '' : ` (${inert(link.refused.reason)})`}` : inert(link.target);
  const parts = [head, ...flags];
  if (link.shown !== null) parts.push(`shown as "${inert(link.shown)}"`);
  parts.push(`found in ${link.where.map(inert).join(', ')}`);
  return `${String(index + 1)}. ${parts.join('; ')}`;
}

function fileLine(file: CaseFile, index: number): string {
  const parts = [
    file.name === '' ? '(no name)' : inert(file.name),
    `declared ${file.type === '' ? 'none' : inert(file.type)}`,
    `detected ${file.detected === null ? 'unknown' : inert(file.detected)}`,
  ];
  if (file.disguised) parts.push('**DISGUISED**');
  parts.push(`${String(file.size)} bytes`, `SHA-256 ${code(file.sha256)}`);
  return `${String(index + 1)}. ${parts.join('; ')}`;
}

function isCode(place: string): boolean {
  return place.startsWith('qr:');
}

/** A section: its heading, then its lines or the words for none. */
function section(heading: string, lines: readonly string[], none: string): string[] {
  return ['', `### ${heading}`, '', ...(lines.length === 0 ? [none] : lines)];
}

/**
 * A mail's case note in Markdown, for a ticket: the subject, date and reporter, the
 * sender's story, the links (defanged, with their flags and where they were found), the
 * links found in QR codes, the files with their hashes, and what could not be read. `name`
 * is the mail's name (its file). No URL or host in it is live, and no text of the mail
 * renders as anything but text. Ends with a newline.
 */
export function caseNote(report: MailReport, name: string): string {
  const inText = report.links.filter((link) => link.where.some((place) => !isCode(place)));
  const inCodes = report.links.filter((link) => link.where.some(isCode));
  const files = caseRecord(report, name).attachments;
  const lines = [
    `## Reported mail: ${inert(name)}`,
    '',
    `- Subject: ${report.subject === null ? '(none)' : inert(report.subject)}`,
    `- Date: ${report.date === null ? '(none)' : inert(report.date)}`,
    ...(report.reportedBy === null ? [] : [`- Reported by: ${addressLine(report.reportedBy)}`]),
    ...section('Sender', senderLines(report), ''),
    ...section(`Links (${String(inText.length)})`, inText.map(linkLine), 'None found.'),
    ...section(`QR codes (${String(inCodes.length)})`, inCodes.map(linkLine), 'None found.'),
    ...section(`Files (${String(files.length)})`, files.map(fileLine), 'None.'),
    ...(report.problems.length === 0
      ? []
      : section(
          'Not read',
          report.problems.map((problem) => `- ${problem.where === undefined ? '' : `${inert(problem.where)}: `}${inert(problem.reason)}`),
          '',
        )),
  ];
  if (report.remoteContent > 0) lines.push('', `The mail would load ${String(report.remoteContent)} remote resource(s) if shown; none was loaded.`);
  return `${lines.join('\n')}\n`;
}
