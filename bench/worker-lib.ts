/**
 * The bench's helpers inside Isolink's service worker, as plain JavaScript source (sent
 * with CDP Runtime.evaluate; kept as text so no TypeScript transform can add helpers the
 * worker does not have). Installed on `globalThis.__isolinkBench` once per worker start.
 *
 * Timing inside the worker (performance.now(), the worker's own monotonic clock):
 * - Isolink: t0 right before `chrome.contextMenus.onClicked.dispatch(info, tab)` (which
 *   runs Isolink's registered listener synchronously up to its first await); t1 when
 *   `chrome.tabs.onCreated` reports a tab whose pendingUrl is a launch URL.
 * - Floor: t0 before a bare `fetch` of the same command array; then `chrome.tabs.create`
 *   of the launch URL; t1 again from `chrome.tabs.onCreated` (same end event as Isolink),
 *   and the moment `tabs.create` resolves is recorded too, to show how the two compare.
 * After each sample (outside the timed window) the bench waits until Isolink has saved
 * the context in its recent list (the work it does after opening the tab), then closes
 * the tab.
 * - Cold floor (figure 3): the same dispatch and end event, in the floor extension's own
 *   worker (floor-extension.ts), whose listener reads storage once, fetches and opens the tab.
 * - Split (figure 3): one cold click (Isolink's, the floor's) with storage reads, the host-permission query,
 *   fetch, tabs.create and i18n.getMessage wrapped to note when each starts and ends (relative to t0). The
 *   wrappers cost a little, so split samples are never the ratio's samples.
 */
export const WORKER_LIB = String.raw`(() => {
  if (globalThis.__isolinkBench) return 'present';
  function watchTab(prefix, timeoutMs) {
    let listener;
    let timer;
    const promise = new Promise((resolve, reject) => {
      listener = (tab) => {
        const url = tab.pendingUrl || tab.url || '';
        if (url.startsWith(prefix)) resolve({ at: performance.now(), id: tab.id, url });
      };
      chrome.tabs.onCreated.addListener(listener);
      timer = setTimeout(() => reject(new Error('no tab at ' + prefix + ' within ' + timeoutMs + ' ms')), timeoutMs);
    });
    return promise.finally(() => {
      clearTimeout(timer);
      chrome.tabs.onCreated.removeListener(listener);
    });
  }
  /** Resolves true once Isolink's recent list (storage.local recentContexts) holds the launch URL. */
  function savedInRecent(url, timeoutMs) {
    return new Promise((resolve) => {
      let done = false;
      let timer;
      const has = (list) => Array.isArray(list) && list.some((c) => c && c.launchUrl === url);
      const listener = (changes, area) => {
        if (area === 'local' && changes.recentContexts && has(changes.recentContexts.newValue)) finish(true);
      };
      const finish = (value) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        chrome.storage.onChanged.removeListener(listener);
        resolve(value);
      };
      chrome.storage.onChanged.addListener(listener);
      timer = setTimeout(() => finish(false), timeoutMs);
      // It may have been saved before the listener was added.
      chrome.storage.local.get('recentContexts').then(({ recentContexts }) => {
        if (has(recentContexts)) finish(true);
      });
    });
  }
  async function click(info, tab, prefix, timeoutMs) {
    const seen = watchTab(prefix, timeoutMs);
    const t0 = performance.now();
    chrome.contextMenus.onClicked.dispatch(info, tab);
    const created = await seen;
    return { t0, ms: created.at - t0, tabId: created.id, url: created.url };
  }
  /** A click, then (untimed) Isolink's recent list when saved is true, and the tab closed. */
  async function clickAndClose(info, tab, prefix, timeoutMs, saved) {
    const sample = await click(info, tab, prefix, timeoutMs);
    const stored = saved ? await savedInRecent(sample.url, timeoutMs) : false;
    await chrome.tabs.remove(sample.tabId);
    return { t0: sample.t0, ms: sample.ms, url: sample.url, saved: stored };
  }
  const lib = {
    async seed(settings, token) {
      await chrome.storage.local.set({ settings, settings$: { v: 1 }, recentContexts: [] });
      await chrome.storage.session.set({ token });
      await chrome.storage.local.remove('token');
      return true;
    },
    async sourceTab() {
      const tabs = await chrome.tabs.query({});
      const tab = tabs.find((t) => t.url === 'about:blank') || tabs[0];
      return { id: tab.id, index: tab.index, windowId: tab.windowId, url: 'https://mail.example/inbox' };
    },
    async isolink(info, tab, prefix, timeoutMs) {
      const { ms, url, saved } = await clickAndClose(info, tab, prefix, timeoutMs, true);
      return { ms, url, saved };
    },
    async floor(apiUrl, body, prefix, createOptions, timeoutMs) {
      const seen = watchTab(prefix, timeoutMs);
      const t0 = performance.now();
      const response = await fetch(apiUrl, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body });
      const reply = await response.json();
      const fetchedAt = performance.now();
      const id = reply[1].result.browse_context_id;
      const tab = await chrome.tabs.create({ ...createOptions, url: prefix + encodeURIComponent(id) });
      const resolvedAt = performance.now();
      const created = await seen;
      await chrome.tabs.remove(tab.id);
      return { ms: created.at - t0, resolvedMs: resolvedAt - t0, fetchMs: fetchedAt - t0 };
    },
    async seedFloor(floor) {
      await chrome.storage.local.set({ floor });
      return true;
    },
    async floorClick(info, tab, prefix, timeoutMs) {
      const { ms, url } = await clickAndClose(info, tab, prefix, timeoutMs, false);
      return { ms, url };
    },
    /** One click with its storage reads, permission queries, fetch and tabs.create timed (saved: wait for Isolink's recent list). */
    async splitClick(info, tab, prefix, timeoutMs, saved) {
      const calls = [];
      const restore = [];
      const wrap = (owner, name, label) => {
        const original = owner[name];
        owner[name] = function (...args) {
          const call = { label, start: performance.now(), end: NaN };
          calls.push(call);
          const result = original.apply(this, args);
          const ended = () => { call.end = performance.now(); };
          Promise.resolve(result).then(ended, ended);
          return result;
        };
        restore.push(() => { owner[name] = original; });
      };
      for (const area of ['local', 'session', 'managed']) if (chrome.storage[area]) wrap(chrome.storage[area], 'get', 'storage.' + area);
      wrap(chrome.permissions, 'contains', 'permissions');
      wrap(globalThis, 'fetch', 'fetch');
      wrap(chrome.tabs, 'create', 'tabs.create');
      wrap(chrome.i18n, 'getMessage', 'i18n');
      try {
        const { t0, ms } = await clickAndClose(info, tab, prefix, timeoutMs, saved);
        return { ms, calls: calls.map(({ label, start, end }) => ({ label, start: start - t0, end: end - t0 })) };
      } finally {
        for (const undo of restore) undo();
      }
    },
    /** n isolations in a row, each tab closed before the next; returns failures. */
    async loop(n, info, tab, prefix, timeoutMs) {
      let failed = 0;
      for (let i = 0; i < n; i++) {
        try {
          const r = await lib.isolink(info, tab, prefix, timeoutMs);
          if (!r.saved) failed += 1;
        } catch (e) {
          failed += 1;
        }
      }
      return { failed };
    },
    /** How long the worker has been alive, for the record. */
    alive() {
      return { timeOrigin: performance.timeOrigin, now: performance.now() };
    },
  };
  globalThis.__isolinkBench = lib;
  return 'installed';
})()`;

/** `__isolinkBench.<name>(...args)` as an expression, arguments as JSON. */
export function call(name: string, ...args: unknown[]): string {
  return `globalThis.__isolinkBench.${name}(...${JSON.stringify(args)})`;
}
