/**
 * Isolate by policy in the background: the network rules (src/autoisolate) built from the
 * settings in force and installed as the browser's dynamic rules, which persist across
 * browser restarts. Installed again whenever what they depend on changes: the settings
 * (the user's or the organisation's), the host permissions, and at install and browser
 * start (a new key each time, so a key seen once is soon worth nothing).
 */
import { ALL_SITES, autoIsolateOf, buildRules, landingOf, newKey, reasonOf, toDomainsAccess } from '../autoisolate';
import type { Landed } from '../messaging/protocol';
import { createContexts, remember } from './actions';
import { connect, launchOrigin, serviceOrigin } from './connection';
import type { Deps } from './deps';

/**
 * Builds and installs the rules for the settings in force. A managed `autoIsolate` that
 * does not parse changes nothing: the rules in force stay (a broken policy never loosens
 * them), and the options page shows the policy's problem. A failure to read the settings
 * (the organisation's policy not read in time) rejects and also leaves the rules as they are.
 */
export async function installRules(deps: Deps): Promise<void> {
  const view = await deps.store.readSettings();
  if (view.managedIssues.some((issue) => issue.key === 'autoIsolate')) return;
  const { settings } = view;
  const exempt = [serviceOrigin(settings), launchOrigin(settings)].filter((origin) => origin !== null);
  const config = autoIsolateOf(settings.autoIsolate);
  const access = { all: await deps.browser.hasAccess(ALL_SITES), to: config.to.length > 0 && (await deps.browser.hasAccess(toDomainsAccess(config))) };
  await deps.browser.setRules(buildRules(config, { page: deps.browser.landingPage, key: newKey(), exempt, access }));
}

/**
 * The landing page's fragment: a navigation the installed rules stopped (their id and key, see
 * src/autoisolate reasonOf), or `refused` and nothing done. Under `ask`, what it is until the
 * user chose (`go`); else, one context for its target through the one resolver, whose checked
 * launch URL the page puts in its own place. The check is here, in the background, whatever
 * page sends the fragment.
 */
export async function landed(deps: Deps, hash: string, go: boolean): Promise<Landed> {
  const landing = landingOf(hash);
  if (landing === null) return { kind: 'refused' };
  // The settings are read once: for `ask`, and by the create that follows. The connection
  // (the settings checked, the token read, no request) is begun beside the rules' read;
  // nothing is sent before the fragment is checked. Its failure surfaces where it is awaited.
  const read = deps.store.readSettings();
  const connecting = connect(deps, read);
  connecting.catch(() => undefined);
  const [rules, view] = await Promise.all([deps.browser.rules(), read]);
  const reason = reasonOf(landing, rules, { page: deps.browser.landingPage });
  if (reason === null) return { kind: 'refused' };
  const target = { url: landing.url, host: new URL(landing.url).hostname, reason };
  if (!go && autoIsolateOf(view.settings.autoIsolate).ask) return { ...target, kind: 'ask', local: 'from' in reason };
  const { launchUrls, failures } = await deps.inFlight.run(`landed ${landing.url}`, async () => {
    const outcome = await createContexts(deps, [landing.url], undefined, connecting);
    // The page waits for the launch URL, not for the recent list: the context is recorded
    // while the answer travels (best effort, as after a menu's tab opened; it never rejects).
    void remember(deps, outcome.created);
    return outcome;
  });
  const launchUrl = launchUrls[0];
  return launchUrl === undefined ? { ...target, kind: 'failed', error: failures[0]?.error ?? '' } : { ...target, kind: 'opened', launchUrl };
}
