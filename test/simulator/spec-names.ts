/**
 * Names the service interface fixes but that src/api/wire.ts does not (yet) carry.
 * They are spelled once here so the simulator uses each in one place; if the wire
 * table gains them, these should become imports from it.
 */

/** The command-array envelope (spec: each object has a `command`; setauth carries `data`). */
export const ENVELOPE = {
  command: 'command',
  data: 'data',
  result: 'result',
  error: 'error',
} as const;

/** Flat parameters of the org and proxy commands (spec: Commands table). */
export const ORG_PARAMS = {
  /** listusers */
  org: 'org',
  /** org.get and policy_proxies.* */
  orgName: 'org_name',
  includeProxyPolicy: 'include_proxy_policy',
  proxies: 'proxies',
  proxyNames: 'proxy_names',
} as const;

/** policy_proxies.delete result keys (spec). */
export const PROXY_DELETE_RESULT = {
  deleted: 'proxies_deleted',
  notFound: 'proxies_not_found',
} as const;

/** session_type values (spec). The first is the default. */
export const SESSION_TYPES = ['service-ruby', 'toolbox-standalone'] as const;
export type SessionType = (typeof SESSION_TYPES)[number];
export const RESEARCH_SESSION_TYPE: SessionType = 'toolbox-standalone';

/** Proxy object (spec). */
export const PROXY_TYPES = ['http', 'https', 'socks', 'socks4', 'socks5'] as const;

/** Browser profile (spec). */
export const PROFILE_OS = ['win', 'mac', 'linux', 'android', 'ios'] as const;
export const PROFILE_BROWSERS = ['chrome', 'firefox', 'edge', 'safari', 'tor'] as const;

/** Policy types with known values (spec: Policy entry). Others are accepted unchecked. */
export const POLICY_TYPES = {
  readonly: 'readonly',
  fileTransfer: 'file_transfer',
  clipboard: 'clipboard',
  adBlock: 'ad_block',
  browserChrome: 'browser_chrome',
  domainAllow: 'domain_allow',
  domainBlock: 'domain_block',
  ribbonBackground: 'ribbon_background_color',
  ribbonText: 'ribbon_text_color',
  ribbonMessage: 'ribbon_message',
} as const;

/** Limit from the spec. */
export const RIBBON_MESSAGE_MAX = 100;
