/** The options page: loads settings and status, then shows one section at a time. */
import type { ComponentType } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { t } from '../../i18n';
import { settingsIssueText } from '../../i18n/errors';
import { OPTIONS_SECTIONS, optionsSectionOf, type OptionsSection } from '../../messaging/options';
import { sendToBackground, type Connector } from '../../messaging/page';
import type { SettingsView } from '../../messaging/protocol';
import { AutoIsolateSection } from './AutoIsolateSection';
import { ConnectionSection } from './ConnectionSection';
import { FilesSection } from './FilesSection';
import { ImportExportSection } from './ImportExportSection';
import { Nav } from './Nav';
import { PolicySection } from './PolicySection';
import { ProxiesSection } from './ProxiesSection';
import { SessionSection } from './SessionSection';
import { createOptionsState, type SectionProps } from './state';

/** The sections an import starts over (the import's own section keeps its state). */
const SETTINGS_SECTIONS: Readonly<Record<Exclude<OptionsSection, 'import-export'>, ComponentType<SectionProps>>> = {
  connection: ConnectionSection,
  policy: PolicySection,
  session: SessionSection,
  'auto-isolate': AutoIsolateSection,
  proxies: ProxiesSection,
  files: FilesSection,
};

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

/**
 * The section shown, from the page's fragment (none, or one naming no section: the
 * connection), so a link or a reload lands on it. A click on the navigation writes the
 * fragment itself (the page does not jump to an anchor); the back button, or another page
 * changing the fragment (openOptionsAt), is followed too. After each move the section's
 * heading takes the focus, so a keyboard or screen reader user goes on from there.
 */
function useSection(ready: boolean) {
  const [place, setPlace] = useState(() => ({ section: optionsSectionOf(location.hash), moves: 0 }));
  useEffect(() => {
    // Only a change of section is a move: the page's own pushState may be reported too.
    const follow = () => {
      setPlace((last) => {
        const section = optionsSectionOf(location.hash);
        return section === last.section ? last : { section, moves: last.moves + 1 };
      });
    };
    addEventListener('hashchange', follow);
    addEventListener('popstate', follow);
    return () => {
      removeEventListener('hashchange', follow);
      removeEventListener('popstate', follow);
    };
  }, []);
  const focused = useRef(0);
  // As the section is drawn, not a frame later: nothing else can take the focus in between.
  useLayoutEffect(() => {
    if (!ready || place.moves === focused.current) return;
    focused.current = place.moves;
    document.getElementById(`${place.section}-heading`)?.focus();
  }, [ready, place]);
  const go = (section: OptionsSection) => {
    if (location.hash !== `#${section}`) history.pushState(null, '', `#${section}`);
    setPlace((last) => ({ section, moves: last.moves + 1 }));
  };
  return { section: place.section, go };
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
  const { section, go } = useSection(ready);
  // A section once shown stays in the page, hidden, so its unsaved edits outlive a visit elsewhere.
  const [visited] = useState(() => new Set<OptionsSection>());
  visited.add(section);
  const slot = (id: OptionsSection, props: SectionProps) => {
    const Body = id === 'import-export' ? ImportExportSection : SETTINGS_SECTIONS[id];
    return (
      visited.has(id) && (
        <div key={id} class="section-slot" hidden={id !== section}>
          <Body {...props} />
        </div>
      )
    );
  };

  return (
    <div class="options-page" data-ready={ready ? 'true' : 'false'} aria-busy={!ready && loadError === null}>
      <header>
        <h1>{t('optionsTitle')}</h1>
      </header>
      <div class="options-body">
        <Nav current={section} view={view} onGo={go} />
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
                {OPTIONS_SECTIONS.filter((id) => id !== 'import-export').map((id) => slot(id, { state, view, status }))}
              </div>
              {slot('import-export', { state, view, status })}
            </>
          )}
        </main>
      </div>
    </div>
  );
}
