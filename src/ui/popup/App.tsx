import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { autoIsolateOf, fromSiteOf } from '../../autoisolate';
import { t } from '../../i18n';
import { openOptionsAt } from '../../messaging/options';
import { sendToBackground, type Connector } from '../../messaging/page';
import type { PopupDeps } from './deps';
import type { QrCodes } from './QrCodes';
import { IsolatePanel } from './IsolatePanel';
import { LaterNote } from './LaterNote';
import { createPopupState, type PopupState, type TabId } from './state';
import { StatusLine } from './StatusLine';
import { Tabs, type TabDef } from './Tabs';

export interface AppProps {
  readonly connector?: Connector;
  readonly copyText?: PopupDeps['copyText'];
  readonly openOptions?: PopupDeps['openOptions'];
  readonly openMail?: PopupDeps['openMail'];
  readonly now?: PopupDeps['now'];
  /** The current tab's URL (readable under activeTab while the popup is open), or undefined. */
  readonly tabUrl?: () => Promise<string | undefined>;
}

const copyToClipboard = (text: string): Promise<void> => navigator.clipboard.writeText(text);
/** The popup offers the options when Isolink is not set up: the connection is what to fix. */
const openOptionsPage = (): Promise<void> => openOptionsAt('connection');
/** The reported mail page, in a tab of its own: the popup loads none of its code. */
const openMailPage = async (): Promise<void> => {
  await browser.tabs.create({ url: browser.runtime.getURL('/mail.html') });
};

const activeTabUrl = async (): Promise<string | undefined> => (await browser.tabs.query({ active: true, currentWindow: true }))[0]?.url;

/** Says when the current tab's site is one whose links open in isolation by policy (src/autoisolate). */
function FromSiteNote({ state, tabUrl }: { readonly state: PopupState; readonly tabUrl: () => Promise<string | undefined> }) {
  const [url, setUrl] = useState<string | undefined>(undefined);
  useEffect(() => {
    tabUrl().then(setUrl, () => undefined);
  }, [tabUrl]);
  const view = state.settings.value;
  const site = view === null ? undefined : fromSiteOf(url, autoIsolateOf(view.settings.autoIsolate));
  return site === undefined ? null : (
    <p class="note from-site" role="note">
      {t('popupFromSite', site)}
    </p>
  );
}

function tabDefs(): readonly TabDef<TabId>[] {
  return [
    { id: 'isolate', label: t('popupTabIsolate') },
    { id: 'bulk', label: t('popupTabBulk') },
    { id: 'recent', label: t('popupTabRecent') },
    { id: 'fang', label: t('popupTabFang') },
  ];
}

/** The selected tab's panel; a later tab's once it has loaded. */
function Panel({ state }: { readonly state: PopupState }) {
  const id = state.tab.value;
  if (id === 'isolate') return <IsolatePanel state={state.isolate} />;
  const later = state.panels[id];
  const Loaded = later.loaded.value;
  return Loaded === null ? <LaterNote later={later} /> : <Loaded />;
}

/**
 * A screenshot pasted (Ctrl+V) on the popup: its QR codes, read by code loaded with the
 * first one (text pasted into a field is left to the field). An image file is chosen or
 * dropped on the Reported mail page: a file dialog closes the popup.
 */
function usePastedImages(state: PopupState, show: (codes: QrCodes) => void): void {
  useEffect(() => {
    let codes: Promise<QrCodes> | undefined;
    const paste = (event: ClipboardEvent): void => {
      const image = [...(event.clipboardData?.files ?? [])].find((file) => file.type.startsWith('image/'));
      if (image === undefined) return;
      event.preventDefault();
      codes ??= import('./QrCodes').then(({ createQrCodes }) =>
        createQrCodes(state.isolate, () => {
          state.selectTab('isolate');
        }),
      );
      codes.then(
        async (loaded) => {
          show(loaded);
          await loaded.read(image);
        },
        () => {
          codes = undefined;
        },
      );
    };
    document.addEventListener('paste', paste);
    return () => {
      document.removeEventListener('paste', paste);
    };
  }, [state, show]);
}

/** The toolbar popup. Everything it does goes through the background; it opens no URL itself. */
export function App({
  connector = sendToBackground,
  copyText = copyToClipboard,
  openOptions = openOptionsPage,
  openMail = openMailPage,
  now = Date.now,
  tabUrl = activeTabUrl,
}: AppProps) {
  const [state] = useState(() => createPopupState({ connector, copyText, openOptions, openMail, now }));
  // Asked for right after the first render, not after the first paint (where useEffect
  // waits for an animation frame): the replies arrive while the page paints.
  useLayoutEffect(() => {
    void state.load();
  }, [state]);
  const [codes, setCodes] = useState<QrCodes | null>(null);
  usePastedImages(state, setCodes);
  const tab = state.tab.value;
  return (
    <main class="popup" data-ready={state.ready.value ? 'true' : 'false'}>
      <header class="top">
        <div class="heading-row">
          <h1>{t('popupHeading')}</h1>
          <button type="button" class="link-button" onClick={() => void state.openMail()}>
            {t('popupOpenMail')}
          </button>
        </div>
        <StatusLine state={state} />
        <FromSiteNote state={state} tabUrl={tabUrl} />
      </header>
      {codes !== null && <codes.View />}
      <Tabs label={t('popupTabsLabel')} tabs={tabDefs()} selected={tab} busy={tab !== 'isolate' && state.panels[tab].busy.value} onSelect={state.selectTab}>
        <Panel state={state} />
      </Tabs>
    </main>
  );
}
