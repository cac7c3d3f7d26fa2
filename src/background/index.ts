/**
 * The background's composition: real browser-backed dependencies, and every listener
 * registered synchronously (MV3 wakes the worker for an event only if its listener was
 * added in the first turn of the script).
 */
import { browser, type Browser } from 'wxt/browser';
import { copyText } from './clipboard';
import type { Deps } from './deps';
import { MENU_IDS, onCommand, onMenuClick, onNotificationAction, onOmniboxEntered, omniboxSuggestion, omniboxText } from './entries';
import { createHandlers, followRemember } from './handlers';
import { fangMenuTitle, installMenus } from './menus';
import { browserNotifier } from './notify';
import { createRouter, originOf } from './router';
import { SingleFlight } from './single-flight';
import { addRecent, listRecent, removeRecent, updateRecent } from '../settings/recent';
import { takePending } from '../settings/pending';
import { exportSettings, importSettings, previewImport, readSettingsView, saveSettings } from '../settings/store';
import { clearToken, moveToken, readToken, writeToken } from '../settings/token';
import { t } from '../i18n';
import { hostPatternOf } from '../net/url';
import { scanQuery } from '../messaging/scan';
import { installRules } from './rules';
import type { NetRule } from '../autoisolate';

/** storage.session's key for the copy of the network rules installed (see `rules` below). */
const RULES_COPY = 'installedRules';

/** The background's one dependency object: storage, the browser, the clock (see deps.ts). */
function createDeps(): Deps {
  let installing: Promise<void> = Promise.resolve();
  /** True when every one of these host permissions is granted (the one permissions query of the worker). */
  const hasAccess = (origins: readonly string[]): Promise<boolean> => browser.permissions.contains({ origins: [...origins] });
  return {
    store: {
      readSettings: readSettingsView,
      saveSettings,
      exportSettings,
      previewImport,
      importSettings,
      readToken,
      writeToken,
      moveToken,
      clearToken,
      listRecent,
      addRecent,
      updateRecent,
      removeRecent,
    },
    browser: {
      openScan: async (from, request) => {
        await browser.tabs.create({
          url: `${browser.runtime.getURL('/mail.html')}${scanQuery(request)}`,
          active: false,
          ...(from.index === undefined ? {} : { index: from.index + 1 }),
          windowId: request.windowId,
          openerTabId: request.tabId,
        });
      },
      openTab: async (url, options) => {
        try {
          await browser.tabs.create({
            url,
            active: options.active,
            ...(options.index === undefined ? {} : { index: options.index }),
            ...(options.windowId === undefined ? {} : { windowId: options.windowId }),
            ...(options.openerTabId === undefined ? {} : { openerTabId: options.openerTabId }),
          });
        } catch {
          // The source tab or its window may have closed meanwhile (a popup opened as a
          // tab, a closed window): the launch URL still opens, wherever the browser puts it.
          await browser.tabs.create({ url, active: options.active });
        }
      },
      activeTab: async () => {
        const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
        return tab ? { id: tab.id, index: tab.index, windowId: tab.windowId, url: tab.url } : undefined;
      },
      hasHostPermission: (origin) => hasAccess([hostPatternOf(origin)]),
      // The fixed address, from the extension's origin: runtime.getURL('/isolate.html') answers
      // Chrome's per-session dynamic address for a page web-accessible only through one, which
      // the rules (they persist across restarts) must not carry and no web page should see.
      landingPage: new URL('/isolate.html', browser.runtime.getURL('/')).href,
      hasAccess,
      // The rules in force, from their copy in storage.session when there is one: reading the
      // browser's rules costs the landing page's click about 15 ms more. The copy is the rules
      // as the browser took them: taken away before they change, written once the browser has
      // them, one installation at a time; without it (a browser restart, an update, a failed
      // installation) the browser's rules are read. storage.session is the worker's and its
      // pages' only (trusted contexts), and is never written elsewhere.
      rules: async () => {
        const copy: unknown = (await browser.storage.session.get(RULES_COPY))[RULES_COPY];
        return (Array.isArray(copy) ? copy : await browser.declarativeNetRequest.getDynamicRules()) as NetRule[];
      },
      setRules: (rules) =>
        (installing = installing
          .catch(() => undefined)
          .then(async () => {
            const dnr = browser.declarativeNetRequest;
            await browser.storage.session.remove(RULES_COPY);
            const old = await dnr.getDynamicRules();
            await dnr.updateDynamicRules({ removeRuleIds: old.map((rule) => rule.id), addRules: rules as Browser.declarativeNetRequest.Rule[] });
            await browser.storage.session.set({ [RULES_COPY]: rules });
          })),
      notifier: browserNotifier,
      copyText,
      // Every notification that offers the options is about the set-up: the connection.
      // The browser's own opener: options.html, whose first section is the connection (an
      // options tab already open is brought forward as it is). openOptionsAt's section switch
      // stays in the pages: the worker is at its 42 kB guard.
      openOptions: () => browser.runtime.openOptionsPage(),
    },
    inFlight: new SingleFlight(),
    now: () => Date.now(),
  };
}

/** Errors in listeners are reported through notifications; this catches what slips past. */
function settle(promise: Promise<unknown>): void {
  promise.catch((error: unknown) => {
    console.error('Isolink background error', error instanceof Error ? error.name : typeof error);
  });
}

export function registerBackground(): void {
  const deps = createDeps();
  const router = createRouter(createHandlers(deps), {
    extensionId: browser.runtime.id,
    extensionOrigin: originOf(new URL(browser.runtime.getURL('/'))),
  });

  // Menus and the omnibox's default suggestion live in the browser, not in the worker: set
  // on install, update and browser start, never on a worker start (its translation would be
  // the only text a woken worker reads before a click). The token goes where the "remember"
  // in force says, whenever the organisation's policy may have changed it: at start-up, and
  // when the policy changes (Chrome tells; Firefox reads policies at start-up only).
  // Isolate by policy's rules follow the settings in force and the host access granted.
  const rules = (): void => {
    settle(installRules(deps));
  };
  const setUp = (): void => {
    settle(installMenus());
    // Firefox returns nothing here, Chrome a promise: either settles.
    settle(Promise.resolve().then(() => browser.omnibox.setDefaultSuggestion({ description: omniboxText(t('omniboxDefault')) })));
    settle(followRemember(deps.store));
    rules();
  };
  browser.runtime.onInstalled.addListener(setUp);
  browser.runtime.onStartup.addListener(setUp);
  browser.storage.onChanged.addListener((changes, area) => {
    if (area === 'managed') settle(followRemember(deps.store));
    if (area === 'managed' || (area === 'local' && Object.hasOwn(changes, 'settings'))) rules();
  });
  browser.permissions.onAdded.addListener(rules);
  browser.permissions.onRemoved.addListener(rules);
  browser.contextMenus.onClicked.addListener((info, tab) => {
    settle(onMenuClick(deps, info, tab));
  });
  // Firefox tells which selection the menu is for: the title can say how many links it holds.
  const menus = (
    browser as unknown as {
      menus?: {
        onShown?: { addListener(cb: (info: { menuIds: (string | number)[]; selectionText?: string }) => void): void };
        update(id: string, p: { title: string }): Promise<void>;
        refresh(): Promise<void>;
      };
    }
  ).menus;
  menus?.onShown?.addListener((info) => {
    if (!info.menuIds.includes(MENU_IDS.isolateSelection)) return;
    settle(menus.update(MENU_IDS.isolateSelection, { title: fangMenuTitle(info.selectionText ?? '') }).then(() => menus.refresh()));
  });
  browser.commands.onCommand.addListener((command, tab) => {
    settle(onCommand(deps, command, tab));
  });
  browser.omnibox.onInputChanged.addListener((text, suggest) => {
    const description = omniboxSuggestion(text);
    void browser.omnibox.setDefaultSuggestion({ description: omniboxText(description ?? t('omniboxDefault')) });
    suggest([]);
  });
  browser.omnibox.onInputEntered.addListener((text) => {
    settle(onOmniboxEntered(deps, text));
  });
  const runPending = (id: string, button?: number): void => {
    settle(
      takePending(id, button).then(async (action) => {
        await browser.notifications.clear(id);
        await onNotificationAction(deps, action);
      }),
    );
  };
  browser.notifications.onClicked.addListener(runPending);
  browser.notifications.onButtonClicked.addListener((id, button) => {
    runPending(id, button);
  });
  browser.runtime.onMessage.addListener((message: unknown, sender, sendResponse) => {
    const reply = router(message, sender);
    if (!reply) return false;
    void reply.then(sendResponse);
    // Keeps the channel open for the asynchronous answer.
    return true;
  });
}
