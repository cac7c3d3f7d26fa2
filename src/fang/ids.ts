/** The wrapping services' ids and names: data only, so the settings and pages can load them alone. */

/** Stable ids of the wrapping services (they reach settings, tests and the recent list). */
export const WRAPPER_IDS = [
  'safelinks',
  'proofpoint',
  'mimecast',
  'barracuda',
  'trendmicro',
  'sophos',
  'cisco',
  'symantec',
  'google',
  'slack',
  'facebook',
  'linkedin',
] as const;
/** The id of a wrapping service unwrap knows (WRAPPER_NAMES gives its name). */
export type WrapperId = (typeof WRAPPER_IDS)[number];

/** How each service is called where it is shown (product names: not translated). */
export const WRAPPER_NAMES: Readonly<Record<WrapperId, string>> = {
  safelinks: 'Microsoft Safe Links',
  proofpoint: 'Proofpoint URL Defense',
  mimecast: 'Mimecast URL Protect',
  barracuda: 'Barracuda Link Protection',
  trendmicro: 'Trend Micro Time-of-Click',
  sophos: 'Sophos Time-of-Click',
  cisco: 'Cisco Secure Email',
  symantec: 'Symantec Click-time',
  google: 'Google',
  slack: 'Slack',
  facebook: 'Facebook',
  linkedin: 'LinkedIn',
};

/** "Microsoft Safe Links, Proofpoint URL Defense": wrapping services by name, outermost first. */
export function wrapperNamesOf(ids: readonly WrapperId[]): string {
  return ids.map((id) => WRAPPER_NAMES[id]).join(', ');
}
