/**
 * Isolink as a library: the typed client for the whole service interface, the link tools
 * the extension uses (refang, defang, extract, unwrap), and the reader of reported mails
 * (linksInMail). ESM, for Node 20 and later; no browser APIs. Runtime dependencies: zod,
 * and the mail reader's parsers (postal-mime, @kenjiuno/msgreader, parse5, tldts).
 *
 * @example
 * import { createClient, refang, unwrap } from 'isolink';
 * const client = createClient({ baseUrl: 'https://isolation.example.com', launchBase: 'https://isolation.example.com', token });
 * const { url } = unwrap(refang('hxxps://eur01.safelinks.protection.outlook[.]com/?url=…'));
 * const { browse_context_id } = await client.createContext({ username, url, auto_domain_allow: true });
 * console.log(client.launchUrl(browse_context_id));
 *
 * @packageDocumentation
 */
export * from '../api';
export { MAX_UNWRAP_DEPTH, WRAPPER_IDS, WRAPPER_NAMES, defang, extractUrls, refang, unwrap, unwrapText, type Unwrapped, type WrapperId } from '../fang';
export {
  EGRESS_DETAILED,
  EGRESS_NAMES,
  EGRESS_REGIONS,
  isEgressLocation,
  type Connectivity,
  type EgressLocation,
  type EgressProtocol,
  type RegionName,
} from '../egress';
export {
  linksInMail,
  MAIL_FAILURES,
  MAIL_LIMITS,
  MAIL_PROBLEMS,
  type LinkRefusal,
  type MailFailure,
  type MailFailureCode,
  type MailFormat,
  type MailLink,
  type MailOptions,
  type MailProblem,
  type MailProblemCode,
  type MailReading,
  type MailReport,
} from '../readers';
