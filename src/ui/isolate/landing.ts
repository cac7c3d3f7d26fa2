/**
 * The landing page's decisions, apart from its view. The page sends the fragment it was
 * opened with to the background (`landed`), which checks it against the rules installed
 * (their id and key, src/autoisolate) and isolates the target, or says what it is when the
 * settings ask first; the page shows that and puts the launch URL in its own place. A
 * fragment the rules did not write is refused there, and nothing is done.
 */
import { landingOf, type Reason } from '../../autoisolate';
import { RemoteError, type Connector } from '../../messaging/page';
import type { Landed } from '../../messaging/protocol';

export interface LandingDeps {
  readonly connector: Connector;
  /** Replaces this page, in its tab and its history, with a URL: the launch URL, or the target where the user chose so. */
  readonly replaceWith: (url: string) => void;
  /** Leaves the page: back to the page the link was on, or closes the tab it opened. */
  readonly leave: () => void;
  /** Opens the options page at its connection section. */
  readonly openOptions: () => Promise<void>;
}

/** The target of a navigation stopped by the rules, as the page shows it. */
export interface Stopped {
  /** The fragment, sent again when the user chooses to isolate. */
  readonly hash: string;
  readonly url: string;
  readonly host: string;
  /** Why the rules stopped it; unknown when the background failed before saying. */
  readonly reason: Reason | undefined;
  /** The user may open it on this computer: asked, and it leaves a `from` site to no `to` domain. */
  readonly local: boolean;
}

export type Landing =
  | { readonly phase: 'checking' }
  /** The rules did not send this page: nothing is done. */
  | { readonly phase: 'refused' }
  | { readonly phase: 'ask'; readonly stopped: Stopped }
  | { readonly phase: 'opening'; readonly stopped: Stopped }
  | { readonly phase: 'failed'; readonly stopped: Stopped; readonly error: unknown };

/**
 * The next state from the background's answer about `hash`: the launch URL put in the
 * page's place, the question, a failure (an error thrown has its words), or refused.
 */
export async function settle(hash: string, answer: Promise<Landed>, deps: Pick<LandingDeps, 'replaceWith'>, stopped?: Stopped): Promise<Landing> {
  let landed: Landed;
  try {
    landed = await answer;
  } catch (error) {
    // The background failed (the service, the settings): the link the fragment names is
    // shown as not opened; a fragment no rule could have written is refused as ever.
    const landing = landingOf(hash);
    const shown = stopped ?? (landing === null ? undefined : { hash, url: landing.url, host: new URL(landing.url).hostname, reason: undefined, local: false });
    return shown === undefined ? { phase: 'refused' } : { phase: 'failed', stopped: shown, error };
  }
  if (landed.kind === 'refused') return { phase: 'refused' };
  const target: Stopped = { hash, url: landed.url, host: landed.host, reason: landed.reason, local: landed.kind === 'ask' && landed.local };
  if (landed.kind === 'ask') return { phase: 'ask', stopped: target };
  // The background's words for the refusal (already in the analyst's language).
  if (landed.kind === 'failed') return { phase: 'failed', stopped: target, error: new RemoteError({ name: 'RefusedUrl', message: landed.error }) };
  deps.replaceWith(landed.launchUrl);
  return { phase: 'opening', stopped: target };
}

/** The user chose isolation (or to try again): the background checks the fragment again and isolates. */
export function openInIsolation(stopped: Stopped, deps: Pick<LandingDeps, 'connector' | 'replaceWith'>): Promise<Landing> {
  return settle(stopped.hash, deps.connector('landed', { hash: stopped.hash, go: true }), deps, stopped);
}
