/**
 * State of the quick isolation form: the URL field, the session type, the research
 * choices and the quick policy toggles, and the requests they send.
 */
import { batch, computed, signal } from '@preact/signals';
import type { IsolateResult, MessageData, Settings } from '../../messaging/protocol';
import { t } from '../../i18n';
import { errorNotice, okNotice } from '../common/notice';
import { researchDraftOf, researchOf, type ResearchDraft } from '../common/research';
import { createTask } from '../common/task';
import type { PopupDeps } from './deps';
import { createLater } from './later';
import { failed } from './notice';
import { previewUrl, type UrlPreview } from './url-preview';

export type SessionKind = MessageData<'isolate'>['session'];
export type Toggles = NonNullable<MessageData<'isolate'>['toggles']>;
/** A quick toggle: leave the default policy alone, or override it. */
export type ToggleChoice = 'default' | 'block_all' | 'allow_all';
/** A wrapped link, where the settings ask: its real target, or the link as written. */
export type WrappedChoice = NonNullable<MessageData<'isolate'>['wrapped']>;

function openedText(result: IsolateResult): string {
  return result.context.host === '' ? t('popupOpenedResearch') : t('popupOpenedHost', result.context.host);
}

export function createIsolateState(deps: PopupDeps) {
  const url = signal('');
  const session = signal<SessionKind>('standard');
  const research = signal<ResearchDraft>(researchDraftOf({ egressRegion: '', browserProfile: null, availability: [], connectivity: [] }));
  /** Set once the analyst changed a research choice: the defaults, read later, no longer apply. */
  let researchChosen = false;
  const readOnly = signal(false);
  const fileTransfer = signal<ToggleChoice>('default');
  const clipboard = signal<ToggleChoice>('default');
  const task = createTask(failed);
  /** The unwrap setting in force (the background enforces it; the preview shows it). */
  const unwrapMode = signal<Settings['unwrap']>('unwrap');
  const wrapped = signal<WrappedChoice>('unwrap');
  /** What the typed text resolves to, as the background would resolve it (see url-preview.ts). */
  const preview = computed((): UrlPreview => previewUrl(url.value, unwrapMode.value));
  /** The research choices' controls, loaded when a research session is first chosen. */
  const researchFields = createLater(async () => (await import('../common/ResearchFields')).ResearchFields);

  function chooseSession(kind: SessionKind): void {
    session.value = kind;
    if (kind === 'research') void researchFields.request();
  }

  /** Takes the research defaults from the settings in force, unless the analyst chose already. */
  function applyDefaults(settings: Settings): void {
    unwrapMode.value = settings.unwrap;
    if (!researchChosen) research.value = researchDraftOf(settings.research);
  }

  function updateResearch(change: Partial<ResearchDraft>): void {
    researchChosen = true;
    research.value = { ...research.value, ...change };
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

  function togglePart() {
    const chosen = toggles();
    return chosen === undefined ? {} : { toggles: chosen };
  }

  function researchPart() {
    return session.value === 'research' ? { research: researchOf(research.value) } : {};
  }

  async function run(request: () => Promise<IsolateResult>): Promise<void> {
    const sentUrl = url.value;
    await task.run(
      async () => okNotice(openedText(await request())),
      (error) => {
        const notice = failed(error);
        // An error about the URL that was sent says nothing about the text typed since.
        return notice.field === 'url' && url.value !== sentUrl ? errorNotice(notice.text) : notice;
      },
    );
  }

  /** The Open button: isolate the URL, or start a research session without one. */
  async function submit(): Promise<void> {
    // Enter while a request runs: nothing happens, and the notice to come stays.
    if (task.busy.value) return;
    const text = url.value.trim();
    const shown = preview.value;
    if (text === '') {
      if (session.value !== 'research') {
        task.notice.value = errorNotice(t('popupUrlEmpty'), 'url');
        return;
      }
      await run(() => deps.connector('research', { research: researchOf(research.value), ...togglePart() }));
      return;
    }
    if (shown.kind === 'refused') {
      task.notice.value = errorNotice(shown.message, 'url');
      return;
    }
    const choice = shown.kind === 'ok' && shown.choice !== undefined ? { wrapped: wrapped.value } : {};
    await run(() => deps.connector('isolate', { url: text, session: session.value, ...researchPart(), ...togglePart(), ...choice }));
  }

  async function isolateCurrentTab(): Promise<void> {
    await run(() => deps.connector('isolateCurrentTab', { session: session.value, ...researchPart(), ...togglePart() }));
  }

  function setUrl(value: string): void {
    batch(() => {
      url.value = value;
      wrapped.value = 'unwrap';
      task.notice.value = null;
    });
  }

  return {
    url,
    session,
    research,
    readOnly,
    fileTransfer,
    clipboard,
    busy: task.busy,
    outcome: task.notice,
    preview,
    wrapped,
    researchFields,
    chooseSession,
    applyDefaults,
    updateResearch,
    setUrl,
    submit,
    isolateCurrentTab,
  };
}

export type IsolateState = ReturnType<typeof createIsolateState>;
