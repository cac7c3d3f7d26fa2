/** The options page: loads settings and status, then shows the sections. */
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { t } from '../../i18n';
import type { MessageKey } from '../../i18n';
import { settingsIssueText } from '../../i18n/errors';
import { sendToBackground, type Connector } from '../../messaging/page';
import type { SettingsView } from '../../messaging/protocol';
import { AutoIsolateSection } from './AutoIsolateSection';
import { ConnectionSection } from './ConnectionSection';
import { FilesSection } from './FilesSection';
import { ImportExportSection } from './ImportExportSection';
import { PolicySection } from './PolicySection';
import { ProxiesSection } from './ProxiesSection';
import { SessionSection } from './SessionSection';
import { createOptionsState } from './state';

const SECTIONS: readonly { readonly id: string; readonly title: MessageKey }[] = [
  { id: 'connection', title: 'optionsConnectionTitle' },
  { id: 'policy', title: 'optionsPolicyTitle' },
  { id: 'session', title: 'optionsSessionTitle' },
  { id: 'auto-isolate', title: 'optionsAutoIsolateTitle' },
  { id: 'proxies', title: 'optionsProxiesTitle' },
  { id: 'files', title: 'optionsFilesTitle' },
  { id: 'import-export', title: 'optionsImportExportTitle' },
];

function ManagedIssues({ view }: { readonly view: SettingsView }) {
  if (view.managedIssues.length === 0) return null;
  return (
    <div class="card managed-issues" role="region" aria-labelledby="managed-issues-heading">
      <h2 id="managed-issues-heading" class="warn">
        {t('optionsManagedIssuesTitle')}
      </h2>
      <p>{t('optionsManagedIssuesIntro')}</p>
      {view.managedBroken.length > 0 && <p class="error">{t('problemManagedBroken', view.managedBroken.join(', '))}</p>}
      <ul>
        {view.managedIssues.map((issue, index) => (
          <li key={`${index}:${issue.key}:${issue.code}`}>{settingsIssueText(issue)}</li>
        ))}
      </ul>
    </div>
  );
}

function Nav() {
  return (
    <nav aria-label={t('optionsNavLabel')} class="page-nav">
      <ul>
        {SECTIONS.map((section) => (
          <li key={section.id}>
            <a href={`#${section.id}`}>{t(section.title)}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * Whether the sections below the first screen are shown: from the frame after the page is
 * ready. The page marks itself ready with the connection (what the first screen shows) and
 * draws the rest before that frame is painted, so nobody sees it come later; the ready mark
 * does not wait for it (bench figure 4). A link to a lower section (`#files`) is followed
 * once it is there.
 */
function useBelowTheFold(ready: boolean): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!ready || shown) return undefined;
    const frame = requestAnimationFrame(() => {
      setShown(true);
    });
    return () => {
      cancelAnimationFrame(frame);
    };
  }, [ready, shown]);
  useEffect(() => {
    if (shown && location.hash.length > 1) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
  }, [shown]);
  return shown;
}

export function App({ connector = sendToBackground }: { readonly connector?: Connector }) {
  const [state] = useState(() => createOptionsState(connector));
  // Asked for right after the first render, not after the first paint (see the popup's App).
  useLayoutEffect(() => {
    void state.load();
  }, [state]);

  const view = state.view.value;
  const status = state.status.value;
  const loadError = state.loadError.value;
  const ready = view !== null && status !== null;
  const generation = state.generation.value;
  const below = useBelowTheFold(ready);

  return (
    <div class="options-page" data-ready={ready ? 'true' : 'false'} aria-busy={!ready && loadError === null}>
      <header>
        <h1>{t('optionsTitle')}</h1>
        <Nav />
      </header>
      <main>
        {loadError !== null && (
          <div class="card" role="alert">
            <p class="error">{t('optionsLoadFailed', loadError)}</p>
            <button
              type="button"
              onClick={() => {
                void state.load();
              }}
            >
              {t('optionsRetry')}
            </button>
          </div>
        )}
        {!ready && loadError === null && <p class="muted">{t('optionsLoading')}</p>}
        {ready && (
          <>
            <ManagedIssues view={view} />
            {/* An import replaces every setting: the sections start over from the new ones. */}
            <div key={generation} class="sections">
              <ConnectionSection state={state} view={view} status={status} />
              {below && (
                <>
                  <PolicySection state={state} view={view} status={status} />
                  <SessionSection state={state} view={view} status={status} />
                  <AutoIsolateSection state={state} view={view} status={status} />
                  <ProxiesSection state={state} view={view} status={status} />
                  <FilesSection state={state} view={view} status={status} />
                </>
              )}
            </div>
            {below && <ImportExportSection state={state} view={view} status={status} />}
          </>
        )}
      </main>
    </div>
  );
}
