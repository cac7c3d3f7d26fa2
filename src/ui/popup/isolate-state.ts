/**
 * State of the quick isolation form: the URL field, the session type, the research
 * choices and the quick policy toggles, and the requests they send.
 */
import { batch, computed, signal } from '@preact/signals';
import { BROWSER_NAMES, BROWSER_OS } from '../../api/params';
import type { IsolateResult, MessageData, Settings } from '../../messaging/protocol';
import { t } from '../../i18n';
import type { PopupDeps } from './deps';
import { errorNotice, okNotice, type Notice } from './notice';
import { previewUrl } from './url-preview';

export type SessionKind = MessageData<'isolate'>['session'];
export type ResearchChoice = MessageData<'research'>['research'];
export type Toggles = NonNullable<MessageData<'isolate'>['toggles']>;
export type BrowserOs = (typeof BROWSER_OS)[number];
export type BrowserName = (typeof BROWSER_NAMES)[number];
/** A quick toggle: leave the default policy alone, or override it. */
export type ToggleChoice = 'default' | 'block_all' | 'allow_all';

/** Category values the popup offers as checkboxes; other stored values are kept as they are. */
export const AVAILABILITY_VALUES = ['public'] as const;
export const CONNECTIVITY_VALUES = ['datacenter', 'isp'] as const;

function withValue(list: readonly string[], value: string, on: boolean): string[] {
  const without = list.filter((entry) => entry !== value);
  return on ? [...without, value] : without;
}

function openedText(result: IsolateResult): string {
  return result.context.host === '' ? t('popupOpenedResearch') : t('popupOpenedHost', result.context.host);
}

export function createIsolateState(deps: PopupDeps) {
  const url = signal('');
  const session = signal<SessionKind>('standard');
  const egressRegion = signal('');
  const os = signal<BrowserOs | ''>('');
  const browserName = signal<BrowserName>('chrome');
  const timezone = signal('');
  const languages = signal('');
  const availability = signal<readonly string[]>([]);
  const connectivity = signal<readonly string[]>([]);
  const readOnly = signal(false);
  const fileTransfer = signal<ToggleChoice>('default');
  const clipboard = signal<ToggleChoice>('default');
  const busy = signal(false);
  const outcome = signal<Notice | null>(null);
  const preview = computed(() => previewUrl(url.value));

  /** Takes the research defaults from the settings in force. */
  function applyDefaults(settings: Settings): void {
    const research = settings.research;
    batch(() => {
      egressRegion.value = research.egressRegion;
      availability.value = research.availability;
      connectivity.value = research.connectivity;
      const profile = research.browserProfile;
      os.value = profile?.os ?? '';
      browserName.value = profile?.browser ?? 'chrome';
      timezone.value = profile?.timezone ?? '';
      languages.value = profile?.languages ?? '';
    });
  }

  function researchChoice(): ResearchChoice {
    const chosenOs = os.value;
    return {
      egressRegion: egressRegion.value,
      browserProfile: chosenOs === '' ? null : { os: chosenOs, browser: browserName.value, timezone: timezone.value, languages: languages.value },
      availability: [...availability.value],
      connectivity: [...connectivity.value],
    };
  }

  /** The toggles the analyst changed, or undefined when all are left at the default. */
  function toggles(): Toggles | undefined {
    const chosen: Toggles = {
      ...(readOnly.value ? { readonly: true } : {}),
      ...(fileTransfer.value === 'default' ? {} : { fileTransfer: fileTransfer.value }),
      ...(clipboard.value === 'default' ? {} : { clipboard: clipboard.value }),
    };
    return Object.keys(chosen).length === 0 ? undefined : chosen;
  }

  async function run(request: () => Promise<IsolateResult>): Promise<void> {
    if (busy.value) return;
    batch(() => {
      busy.value = true;
      outcome.value = null;
    });
    try {
      const result = await request();
      outcome.value = okNotice(openedText(result));
    } catch (error) {
      outcome.value = errorNotice(error);
    } finally {
      busy.value = false;
    }
  }

  /** The Open button: isolate the URL, or start a research session without one. */
  async function submit(): Promise<void> {
    const text = url.value.trim();
    const shown = preview.value;
    const chosenToggles = toggles();
    const togglePart = chosenToggles === undefined ? {} : { toggles: chosenToggles };
    if (text === '') {
      if (session.value !== 'research') {
        outcome.value = { kind: 'error', message: t('popupUrlEmpty'), field: 'url' };
        return;
      }
      await run(() => deps.connector('research', { research: researchChoice(), ...togglePart }));
      return;
    }
    if (shown.kind === 'refused') {
      outcome.value = { kind: 'error', message: shown.message, field: 'url' };
      return;
    }
    const researchPart = session.value === 'research' ? { research: researchChoice() } : {};
    await run(() => deps.connector('isolate', { url: text, session: session.value, ...researchPart, ...togglePart }));
  }

  async function isolateCurrentTab(): Promise<void> {
    const chosenToggles = toggles();
    const togglePart = chosenToggles === undefined ? {} : { toggles: chosenToggles };
    const researchPart = session.value === 'research' ? { research: researchChoice() } : {};
    await run(() => deps.connector('isolateCurrentTab', { session: session.value, ...researchPart, ...togglePart }));
  }

  function setUrl(value: string): void {
    batch(() => {
      url.value = value;
      outcome.value = null;
    });
  }

  function setAvailability(value: string, on: boolean): void {
    availability.value = withValue(availability.value, value, on);
  }

  function setConnectivity(value: string, on: boolean): void {
    connectivity.value = withValue(connectivity.value, value, on);
  }

  return {
    url,
    session,
    egressRegion,
    os,
    browserName,
    availability,
    connectivity,
    readOnly,
    fileTransfer,
    clipboard,
    busy,
    outcome,
    preview,
    applyDefaults,
    setUrl,
    setAvailability,
    setConnectivity,
    submit,
    isolateCurrentTab,
  };
}

export type IsolateState = ReturnType<typeof createIsolateState>;
