/**
 * A mail's reading on the decoder's wire (./wire): the mail is read where the decoder runs
 * (./sandbox), and what it answers is hostile data to the page that asked. The page takes
 * it only in the exact shape of a MailReading (src/readers/mail), every string, array and
 * number within a bound (MAIL_WIRE, MAIL_LIMITS), every code one it knows; anything else is
 * refused whole. The sandbox fits its reading to those bounds before it answers
 * (`fitMailReading`), so an honest reading always passes.
 */
import * as z from 'zod/mini';

import { MAX_UNWRAP_DEPTH, WRAPPER_IDS } from '../../fang';
import { MAX_URL_LENGTH, type TargetUrlProblemCode } from '../../net/url';
import { fillTemplate } from '../../net/template';
import type { AuthMethod } from '../../readers/auth-methods';
import type { MailAttachment } from '../../readers/files';
import type { MailLink } from '../../readers/found';
import { MAIL_LIMITS } from '../../readers/limits';
import type { MailFailureCode, MailFormat, MailReading } from '../../readers/mail';
import { MAIL_FAILURES, MAIL_PROBLEMS } from '../../readers/mail-codes';
import type { MailAddress, ReceivedHop, SenderStory, SenderWarning } from '../../readers/sender';
import type { MailProblem, MailProblemCode } from '../../readers/walk';

/** The bounds of a mail's reading on the wire, beyond MAIL_LIMITS (links, files, shown text). */
export const MAIL_WIRE = {
  /** Longest text of one field: a name, a subject, an address, a date, a place a link was found, a param. */
  text: 1024,
  /** Longest words of a problem or a failure (its English template filled with its params). */
  reason: 8192,
  /** Longest link, as written or as isolated (twice the longest target the resolver takes); a longer one is sent refused, cut. */
  url: 2 * MAX_URL_LENGTH,
  /** Most places one link is said to be found at. */
  where: 64,
  /** Most problems said of one mail. */
  problems: 1000,
  /** Most params of a problem, a failure or a refusal. */
  params: 4,
} as const;

/** Every value of a string union, told by the compiler when one is added. */
function every<T extends string>(values: Record<T, true>): [T, ...T[]] {
  return Object.keys(values) as [T, ...T[]];
}

export const MAIL_FORMATS = every<MailFormat>({
  eml: true,
  msg: true,
  html: true,
  svg: true,
  pdf: true,
  zip: true,
  docx: true,
  xlsx: true,
  pptx: true,
  rtf: true,
  png: true,
  jpeg: true,
  gif: true,
  webp: true,
  bmp: true,
});
const URL_PROBLEMS = every<TargetUrlProblemCode>({ urlTooLong: true, urlNotAbsolute: true, urlScheme: true, urlNoHost: true });
const WARNINGS = every<SenderWarning>({ nameHoldsAddress: true, nameHoldsDomain: true, replyToDomain: true, returnPathDomain: true });
const FAILURE_CODES = Object.keys(MAIL_FAILURES) as [MailFailureCode, ...MailFailureCode[]];
const PROBLEM_CODES = Object.keys(MAIL_PROBLEMS) as [MailProblemCode, ...MailProblemCode[]];

const text = z.string().check(z.maxLength(MAIL_WIRE.text));
const maybe = z.nullable(text);
const reason = z.string().check(z.maxLength(MAIL_WIRE.reason));
const params = z.array(text).check(z.maxLength(MAIL_WIRE.params));
const url = z.string().check(z.minLength(1), z.maxLength(MAIL_WIRE.url));
const count = z.number().check(z.int(), z.nonnegative());

const link = z.strictObject({
  url,
  target: z.nullable(url),
  refused: z.optional(z.strictObject({ code: z.enum(URL_PROBLEMS), reason, params })),
  shown: z.nullable(z.string().check(z.maxLength(MAIL_LIMITS.shownLength))),
  mismatch: z.boolean(),
  where: z.array(text).check(z.minLength(1), z.maxLength(MAIL_WIRE.where)),
  scriptOnly: z.boolean(),
  wrappedBy: z.array(z.enum(WRAPPER_IDS)).check(z.maxLength(MAX_UNWRAP_DEPTH + 1)),
  opaque: z.boolean(),
});

const address = z.nullable(z.strictObject({ name: maybe, address: text, domain: maybe, unicodeDomain: maybe }));
const verdicts = { spf: maybe, dkim: maybe, dmarc: maybe, compauth: maybe } satisfies Record<AuthMethod, unknown>;
const sender = z.strictObject({
  from: address,
  replyTo: address,
  returnPath: address,
  auth: z.strictObject(verdicts),
  authBy: maybe,
  received: z.nullable(z.strictObject({ from: maybe, ip: maybe, by: maybe, date: maybe })),
  warnings: z.array(z.enum(WARNINGS)).check(z.maxLength(WARNINGS.length)),
});

const attachment = z.strictObject({
  name: text,
  type: text,
  detected: maybe,
  disguised: z.boolean(),
  size: count.check(z.maximum(Number.MAX_SAFE_INTEGER)),
  sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
  where: text,
});

const problem = z.strictObject({ code: z.enum(PROBLEM_CODES), params, reason, where: z.optional(text) });

/** What the page accepts as a mail's reading: a report within the bounds, or a failure it can name. */
export const MAIL_READING = z.union([
  z.strictObject({
    ok: z.literal(true),
    format: z.enum(MAIL_FORMATS),
    from: maybe,
    subject: maybe,
    date: maybe,
    links: z.array(link).check(z.maxLength(MAIL_LIMITS.links)),
    sender,
    reportedBy: address,
    attachments: z.array(attachment).check(z.maxLength(MAIL_LIMITS.files)),
    remoteContent: count,
    problems: z.array(problem).check(z.maxLength(MAIL_WIRE.problems)),
  }),
  z.strictObject({ ok: z.literal(false), code: z.enum(FAILURE_CODES), params, reason }),
]);

export type WireMailReading = z.infer<typeof MAIL_READING>;
type WireFailure = Extract<WireMailReading, { ok: false }>;

/** A text within `max` characters: cut, and the cut said with an ellipsis. */
function cut(value: string, max: number = MAIL_WIRE.text): string {
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`;
}

function cutOrNull(value: string | null): string | null {
  return value === null ? null : cut(value);
}

function cutParams(values: readonly string[]): string[] {
  return values.slice(0, MAIL_WIRE.params).map((value) => cut(value));
}

/** A mail failure in the reader's words, its params cut to the wire's bounds. */
export function mailFailure(code: MailFailureCode, ...values: string[]): WireFailure {
  const kept = cutParams(values);
  return { ok: false, code, params: kept, reason: cut(fillTemplate(MAIL_FAILURES[code], kept), MAIL_WIRE.reason) };
}

function fitLink(found: MailLink): z.infer<typeof link> {
  const base = {
    shown: found.shown === null ? null : cut(found.shown, MAIL_LIMITS.shownLength),
    mismatch: found.mismatch,
    where: found.where.slice(0, MAIL_WIRE.where).map((place) => cut(place)),
    scriptOnly: found.scriptOnly,
  };
  if (found.url.length > MAIL_WIRE.url || (found.target?.length ?? 0) > MAIL_WIRE.url) {
    // Too long to send whole, and a cut link is another link: sent refused, so it cannot be opened.
    const limit = String(MAX_URL_LENGTH);
    return {
      url: cut(found.url, MAIL_WIRE.url),
      target: null,
      refused: { code: 'urlTooLong', reason: `is longer than ${limit} characters`, params: [limit] },
      ...base,
      wrappedBy: [],
      opaque: false,
    };
  }
  const refused =
    found.refused === undefined
      ? {}
      : { refused: { code: found.refused.code, reason: cut(found.refused.reason, MAIL_WIRE.reason), params: cutParams(found.refused.params) } };
  return { url: found.url, target: found.target, ...refused, ...base, wrappedBy: found.wrappedBy.slice(0, MAX_UNWRAP_DEPTH + 1), opaque: found.opaque };
}

function fitAddress(value: MailAddress | null): MailAddress | null {
  if (value === null) return null;
  return { name: cutOrNull(value.name), address: cut(value.address), domain: cutOrNull(value.domain), unicodeDomain: cutOrNull(value.unicodeDomain) };
}

function fitHop(hop: ReceivedHop | null): ReceivedHop | null {
  return hop === null ? null : { from: cutOrNull(hop.from), ip: cutOrNull(hop.ip), by: cutOrNull(hop.by), date: cutOrNull(hop.date) };
}

function fitSender(story: SenderStory): z.infer<typeof sender> {
  const { spf, dkim, dmarc, compauth } = story.auth;
  return {
    from: fitAddress(story.from),
    replyTo: fitAddress(story.replyTo),
    returnPath: fitAddress(story.returnPath),
    auth: { spf: cutOrNull(spf), dkim: cutOrNull(dkim), dmarc: cutOrNull(dmarc), compauth: cutOrNull(compauth) },
    authBy: cutOrNull(story.authBy),
    received: fitHop(story.received),
    warnings: [...new Set(story.warnings)],
  };
}

function fitAttachment(file: MailAttachment): MailAttachment {
  return {
    name: cut(file.name),
    type: cut(file.type),
    detected: cutOrNull(file.detected),
    disguised: file.disguised,
    size: file.size,
    sha256: file.sha256,
    where: cut(file.where),
  };
}

function fitProblem(said: MailProblem): z.infer<typeof problem> {
  const kept = cutParams(said.params);
  return {
    code: said.code,
    params: kept,
    reason: cut(fillTemplate(MAIL_PROBLEMS[said.code], kept), MAIL_WIRE.reason),
    ...(said.where === undefined ? {} : { where: cut(said.where) }),
  };
}

/** A reading fitted to the wire's bounds, where the mail was read: what an honest sandbox sends. */
export function fitMailReading(reading: MailReading): WireMailReading {
  if (!reading.ok) return mailFailure(reading.code, ...reading.params);
  return {
    ok: true,
    format: reading.format,
    from: cutOrNull(reading.from),
    subject: cutOrNull(reading.subject),
    date: cutOrNull(reading.date),
    links: reading.links.slice(0, MAIL_LIMITS.links).map(fitLink),
    sender: fitSender(reading.sender),
    reportedBy: fitAddress(reading.reportedBy),
    attachments: reading.attachments.slice(0, MAIL_LIMITS.files).map(fitAttachment),
    remoteContent: reading.remoteContent,
    problems: reading.problems.slice(0, MAIL_WIRE.problems).map(fitProblem),
  };
}

/** The reading the page accepted, as the readers' type: optional fields left out, never undefined. */
export function fromWire(reading: WireMailReading): MailReading {
  if (!reading.ok) return reading;
  return {
    ...reading,
    links: reading.links.map(({ refused, ...rest }) => (refused === undefined ? rest : { ...rest, refused })),
    problems: reading.problems.map(({ where, ...rest }) => (where === undefined ? rest : { ...rest, where })),
  };
}
