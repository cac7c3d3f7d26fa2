/**
 * The landing page's decisions, apart from its view: what the rules sent it, whether they
 * really did, and what happens next. A web page can navigate here only in Firefox, and
 * only knowing the extension's address: what it writes in the fragment is checked against
 * the rules installed (their key and id, src/autoisolate), and nothing is sent before.
 */
import { autoIsolateOf, landingOf, reasonOf, type NetRule, type Reason } from '../../autoisolate';
import { RemoteError, type Connector } from '../../messaging/page';

export interface LandingDeps {
  readonly connector: Connector;
  /** The network rules installed (declarativeNetRequest.getDynamicRules). */
  readonly rules: () => Promise<readonly NetRule[]>;
  /** This page's fixed address, as the rules carry it (src/messaging/landing). */
  readonly page: string;
  /** Replaces this page, in its tab and its history, with a URL: the launch URL, or the target where the user chose so. */
  readonly replaceWith: (url: string) => void;
  /** Leaves the page: back to the page the link was on, or closes the tab it opened. */
  readonly leave: () => void;
  readonly openOptions: () => Promise<void>;
}

/** The target of a navigation stopped by the rules, as the page shows it. */
export interface Stopped {
  readonly url: string;
  readonly host: string;
  readonly reason: Reason;
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
 * What the fragment the page was opened with stands for: a navigation the rules in force
 * stopped (ask first or open at once, as the settings say), or nothing ('refused').
 */
export async function check(hash: string, deps: Pick<LandingDeps, 'connector' | 'rules' | 'page'>): Promise<Landing> {
  const landing = landingOf(hash);
  if (landing === null) return { phase: 'refused' };
  const [view, rules] = await Promise.all([deps.connector('getSettings', {}), deps.rules()]);
  const config = autoIsolateOf(view.settings.autoIsolate);
  const reason = reasonOf(landing, rules, deps);
  if (reason === null) return { phase: 'refused' };
  const stopped = { url: landing.url, host: new URL(landing.url).hostname, reason, local: config.ask && 'from' in reason };
  return config.ask ? { phase: 'ask', stopped } : { phase: 'opening', stopped };
}

/**
 * Creates the context (through the one resolver, as any link) and shows its launch URL in
 * this tab; a failure is the next state, and nothing is opened.
 */
export async function openInIsolation(stopped: Stopped, deps: Pick<LandingDeps, 'connector' | 'replaceWith'>): Promise<Landing> {
  try {
    const { created, failures } = await deps.connector('bulkCreate', { urls: [stopped.url] });
    const launchUrl = created[0]?.launchUrl;
    if (launchUrl === undefined) return { phase: 'failed', stopped, error: new RemoteError({ name: 'RefusedUrl', message: failures[0]?.error ?? '' }) };
    deps.replaceWith(launchUrl);
    return { phase: 'opening', stopped };
  } catch (error) {
    return { phase: 'failed', stopped, error };
  }
}
