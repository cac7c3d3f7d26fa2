/**
 * Launch URLs: where a context opens. Pure (no zod, no fetch): pages and the background
 * check a launch URL with it before a tab opens.
 */
import { LAUNCH } from './wire';

declare const LAUNCH_URL: unique symbol;

/**
 * A launch URL that passed checkLaunchUrl against the configured launch base: the only
 * kind of URL Isolink opens in a tab (the tab opener takes nothing else).
 */
export type LaunchUrl = string & { readonly [LAUNCH_URL]: true };

/** `candidate` as a LaunchUrl when it is a launch URL on `launchBase` (see isLaunchUrl), else null. */
export function checkLaunchUrl(launchBase: string, candidate: string): LaunchUrl | null {
  return isLaunchUrl(launchBase, candidate) ? (candidate as LaunchUrl) : null;
}

/**
 * True when `candidate` is a launch URL on `launchBase`: same origin, https or
 * loopback http (as the base was checked), no userinfo, the launch path below the
 * base's path, and exactly the `ctx` parameter.
 */
export function isLaunchUrl(launchBase: string, candidate: string): boolean {
  let base: URL;
  let url: URL;
  try {
    base = new URL(launchBase);
    url = new URL(candidate);
  } catch {
    return false;
  }
  if (url.origin !== base.origin || url.username || url.password || url.hash) return false;
  let basePath = base.pathname;
  while (basePath.endsWith('/')) basePath = basePath.slice(0, -1);
  if (url.pathname !== `${basePath}${LAUNCH.path}`) return false;
  const keys = [...url.searchParams.keys()];
  return keys.length === 1 && keys[0] === LAUNCH.param && (url.searchParams.get(LAUNCH.param) ?? '').length > 0;
}
