/**
 * The options page's navigation: one real link per section (`#connection`, …), the one
 * shown marked aria-current, and a lock on a section that holds settings set by the
 * organisation (those settings are shown locked where they live).
 */
import { t, type MessageKey } from '../../i18n';
import { OPTIONS_SECTIONS, type OptionsSection } from '../../messaging/options';
import type { SettingsView } from '../../messaging/protocol';
import type { SettingKey } from '../../settings/schema';
import { SESSION_KEYS } from './session-draft';

export const SECTION_TITLES: Readonly<Record<OptionsSection, MessageKey>> = {
  connection: 'optionsConnectionTitle',
  policy: 'optionsPolicyTitle',
  session: 'optionsSessionTitle',
  'auto-isolate': 'optionsAutoIsolateTitle',
  proxies: 'optionsProxiesTitle',
  files: 'optionsFilesTitle',
  'import-export': 'optionsImportExportTitle',
};

/** The settings each section shows (a section not listed shows none). */
const SECTION_KEYS: Partial<Readonly<Record<OptionsSection, readonly SettingKey[]>>> = {
  connection: ['serviceUrl', 'launchUrl', 'username', 'org', 'rememberToken'],
  policy: ['policy'],
  session: SESSION_KEYS,
  'auto-isolate': ['autoIsolate'],
};

/** True when the section shows a setting (or, for the connection, the token) set by the organisation. */
function holdsLocked(view: SettingsView | null, section: OptionsSection): boolean {
  if (view === null) return false;
  if (section === 'connection' && view.tokenManaged) return true;
  return (SECTION_KEYS[section] ?? []).some((key) => view.locked.includes(key));
}

/** A padlock, drawn: no font needs to have it. */
function LockIcon() {
  return (
    <svg class="nav-lock" viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
      <path d="M4.5 7V5a3.5 3.5 0 0 1 7 0v2" fill="none" stroke="currentColor" stroke-width="1.6" />
      <rect x="2.5" y="7" width="11" height="8" rx="1.5" fill="currentColor" />
    </svg>
  );
}

/** A plain left click (no modifier, so not "open in a new tab"): the page follows it itself. */
function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

export function Nav({
  current,
  view,
  onGo,
}: {
  readonly current: OptionsSection;
  readonly view: SettingsView | null;
  readonly onGo: (section: OptionsSection) => void;
}) {
  return (
    <nav aria-label={t('optionsNavLabel')} class="page-nav">
      <ul>
        {OPTIONS_SECTIONS.map((section) => (
          <li key={section}>
            <a
              href={`#${section}`}
              aria-current={section === current ? 'page' : undefined}
              onClick={(event) => {
                if (!isPlainClick(event)) return;
                event.preventDefault();
                onGo(section);
              }}
            >
              {t(SECTION_TITLES[section])}
              {holdsLocked(view, section) && (
                <>
                  <LockIcon />
                  <span class="visually-hidden">{` (${t('optionsNavLocked')})`}</span>
                </>
              )}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
