import { t } from '../../i18n';
import { Button } from '../common/Button';
import { NoticeLine } from '../common/NoticeLine';
import type { ResearchWords } from '../common/ResearchFields';
import { BusyNote } from './BusyNote';
import type { SessionKind, IsolateState } from './isolate-state';
import { LaterNote } from './LaterNote';
import { PolicyToggles } from './PolicyToggles';
import { UrlPreviewLine } from './UrlPreviewLine';

const SESSIONS: readonly { readonly id: SessionKind; readonly label: () => string }[] = [
  { id: 'standard', label: () => t('popupSessionStandard') },
  { id: 'research', label: () => t('popupSessionResearch') },
];

/** The research choice for this one session: no profile unless a system is chosen. */
const RESEARCH_WORDS: ResearchWords = {
  legend: 'popupResearchLegend',
  egressNone: 'popupEgressDefault',
  os: 'popupOsLabel',
  browser: 'popupBrowserLabel',
  profile: { kind: 'none-option', none: 'popupProfileNone' },
  categories: { public: 'popupAvailabilityPublic', datacenter: 'popupConnectivityDatacenter', isp: 'popupConnectivityIsp' },
};

/** The research choice, once its controls have loaded. */
function Research({ state }: { readonly state: IsolateState }) {
  const Fields = state.researchFields.loaded.value;
  if (Fields === null) return <LaterNote later={state.researchFields} />;
  return <Fields words={RESEARCH_WORDS} draft={state.research.value} onChange={state.updateResearch} />;
}

/** Quick isolation: a URL (defanged is fine), the session type, and the quick toggles. */
export function IsolatePanel({ state }: { readonly state: IsolateState }) {
  const busy = state.busy.value;
  const outcome = state.outcome.value;
  const urlInvalid = outcome?.field === 'url' || state.preview.value.kind === 'refused';
  return (
    <form
      class="stack"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void state.submit();
      }}
    >
      <div>
        <label for="isolate-url">{t('popupUrlLabel')}</label>
        <input
          id="isolate-url"
          type="text"
          inputMode="url"
          autoComplete="off"
          spellcheck={false}
          aria-invalid={urlInvalid}
          aria-describedby="isolate-url-hint isolate-url-preview isolate-outcome"
          value={state.url.value}
          onInput={(event) => {
            state.setUrl(event.currentTarget.value);
          }}
          onKeyDown={(event) => {
            // Enter submits explicitly (not left to implicit submission), never mid-composition.
            if (event.key !== 'Enter' || event.isComposing) return;
            event.preventDefault();
            event.currentTarget.form?.requestSubmit();
          }}
        />
        <p id="isolate-url-hint" class="hint muted">
          {t('popupUrlHint')}
        </p>
        <UrlPreviewLine
          id="isolate-url-preview"
          preview={state.preview.value}
          hideRefusal={outcome?.kind === 'error' && outcome.field === 'url'}
          wrapped={state.wrapped.value}
          onChoose={(choice) => {
            state.wrapped.value = choice;
          }}
        />
      </div>
      <fieldset>
        <legend>{t('popupSessionLegend')}</legend>
        {SESSIONS.map((session) => (
          <label key={session.id} class="inline">
            <input
              type="radio"
              name="session"
              value={session.id}
              checked={state.session.value === session.id}
              onChange={() => {
                state.chooseSession(session.id);
              }}
            />
            {session.label()}
          </label>
        ))}
      </fieldset>
      {state.session.value === 'research' && <Research state={state} />}
      <PolicyToggles state={state} />
      <div class="row">
        <Button type="submit" class="primary" busy={busy}>
          {t('popupOpen')}
        </Button>
        <Button busy={busy} onClick={() => void state.isolateCurrentTab()}>
          {t('popupIsolateCurrentTab')}
        </Button>
        <BusyNote shown={busy} text={t('popupWorking')} />
      </div>
      <NoticeLine id="isolate-outcome" notice={outcome} />
    </form>
  );
}
