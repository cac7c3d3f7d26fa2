import { useEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { t } from '../../i18n';
import { sendToBackground, type Connector } from '../../messaging/page';
import { BulkPanel } from './BulkPanel';
import type { PopupDeps } from './deps';
import { FangPanel } from './FangPanel';
import { IsolatePanel } from './IsolatePanel';
import { RecentPanel } from './RecentPanel';
import { createPopupState, type PopupState, type TabId } from './state';
import { StatusLine } from './StatusLine';
import { Tabs, type TabDef } from './Tabs';

export interface AppProps {
  readonly connector?: Connector;
  readonly copyText?: PopupDeps['copyText'];
  readonly openOptions?: PopupDeps['openOptions'];
  readonly now?: PopupDeps['now'];
}

const copyToClipboard = (text: string): Promise<void> => navigator.clipboard.writeText(text);
const openOptionsPage = (): Promise<void> => browser.runtime.openOptionsPage();

function tabDefs(): readonly TabDef<TabId>[] {
  return [
    { id: 'isolate', label: t('popupTabIsolate') },
    { id: 'bulk', label: t('popupTabBulk') },
    { id: 'recent', label: t('popupTabRecent') },
    { id: 'fang', label: t('popupTabFang') },
  ];
}

function Panel({ state }: { readonly state: PopupState }) {
  switch (state.tab.value) {
    case 'isolate':
      return <IsolatePanel state={state.isolate} />;
    case 'bulk':
      return <BulkPanel state={state.bulk} />;
    case 'recent':
      return <RecentPanel state={state.recent} />;
    case 'fang':
      return <FangPanel state={state.fang} />;
  }
}

/** The toolbar popup. Everything it does goes through the background; it opens no URL itself. */
export function App({ connector = sendToBackground, copyText = copyToClipboard, openOptions = openOptionsPage, now = Date.now }: AppProps) {
  const [state] = useState(() => createPopupState({ connector, copyText, openOptions, now }));
  useEffect(() => {
    void state.load();
  }, [state]);
  return (
    <main class="popup" data-ready={state.ready.value ? 'true' : 'false'}>
      <header class="top">
        <h1>{t('popupHeading')}</h1>
        <StatusLine state={state} />
      </header>
      <Tabs
        label={t('popupTabsLabel')}
        tabs={tabDefs()}
        selected={state.tab.value}
        onSelect={(id) => {
          state.tab.value = id;
        }}
      >
        <Panel state={state} />
      </Tabs>
    </main>
  );
}
