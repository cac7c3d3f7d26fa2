/**
 * Readers of what phishing arrives as: a reported mail (.eml, .msg). Below the pages and
 * the command, never imported by the service worker (layers.js): their parsers stay out
 * of the worker's start.
 */
export {
  linksInMail,
  MAIL_FAILURES,
  MAIL_PROBLEMS,
  type MailFailure,
  type MailFailureCode,
  type MailFormat,
  type MailOptions,
  type MailProblem,
  type MailProblemCode,
  type MailReading,
  type MailReport,
} from './mail';
export type { LinkRefusal, MailLink } from './found';
export { MAIL_LIMITS } from './limits';
export { mailFormatOf } from './letter';
