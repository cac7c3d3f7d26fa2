import { t } from '../../i18n';
import { MAX_BULK_URLS } from '../../messaging/limits';
import { Button } from '../common/Button';
import { NoticeLine } from '../common/NoticeLine';
import { createBulkState, MAX_SHOWN, type BulkState, type FoundLink } from './bulk-state';
import { BusyNote } from './BusyNote';
import './lists.css';
import { wrapperNamesOf } from '../../fang/ids';
import type { TabPanel } from './deps';

/** One link as it will be isolated: the real target, what it was wrapped by, or why it is refused. */
function FoundItem({ found }: { readonly found: FoundLink }) {
  const { resolved } = found;
  if (!resolved.ok) {
    return (
      <li>
        <span class="mono muted">{found.link}</span>
      </li>
    );
  }
  const { url, layers, wrapper } = resolved.target;
  return (
    <li>
      <span class="host">{url.hostname}</span>
      <span class="mono muted">{url.href}</span>
      {layers.length > 0 && <span class="small">{t('popupPreviewUnwrapped', wrapperNamesOf(layers))}</span>}
      {wrapper !== undefined && <span class="small">{t('popupWrappedBy', wrapperNamesOf([wrapper]))}</span>}
    </li>
  );
}

function FoundList({ state }: { readonly state: BulkState }) {
  const count = state.urls.value.length;
  return (
    <div>
      <p id="bulk-count" role="status">
        {count > MAX_BULK_URLS ? '' : t('popupBulkCount', String(count))}
      </p>
      {count > MAX_BULK_URLS && (
        <p class="error" role="alert">
          {t('popupBulkTooMany', [String(count), String(MAX_BULK_URLS)])}
        </p>
      )}
      {state.asking.value && (
        <fieldset>
          <legend>{t('popupBulkWrappedChoice')}</legend>
          {(['unwrap', 'keep'] as const).map((value) => (
            <label key={value} class="inline">
              <input
                type="radio"
                name="bulk-wrapped"
                value={value}
                checked={state.wrapped.value === value}
                onChange={() => {
                  state.wrapped.value = value;
                }}
              />
              {value === 'unwrap' ? t('popupUnwrapChoiceReal') : t('popupUnwrapChoiceWrapper')}
            </label>
          ))}
        </fieldset>
      )}
      {count > 0 && (
        <ul class="urls" aria-labelledby="bulk-count">
          {state.shown.value.map((found) => (
            <FoundItem key={found.link} found={found} />
          ))}
        </ul>
      )}
      {count > MAX_SHOWN && <p class="muted">{t('popupBulkMore', String(count - MAX_SHOWN))}</p>}
    </div>
  );
}

function Results({ state }: { readonly state: BulkState }) {
  const result = state.result.value;
  if (result === null) return null;
  const busy = state.busy.value;
  return (
    <section class="stack" aria-labelledby="bulk-created">
      <h2 id="bulk-created">{t('popupBulkCreated', String(result.created.length))}</h2>
      {result.created.length > 0 && (
        <>
          <ul class="results">
            {result.created.map((context) => (
              <li key={context.id}>
                <span class="host">{context.host === '' ? t('popupRecentResearch') : context.host}</span>
                <span class="mono muted">{context.launchUrl}</span>
              </li>
            ))}
          </ul>
          <div class="row">
            <Button class="primary" busy={busy} onClick={() => void state.openAll()}>
              {t('popupOpenAll')}
            </Button>
            <Button busy={busy} onClick={() => void state.copyLaunchUrls()}>
              {t('popupCopyLaunchUrls')}
            </Button>
          </div>
        </>
      )}
      {result.failures.length > 0 && (
        <>
          <h2 class="error">{t('popupBulkFailed', String(result.failures.length))}</h2>
          <ul class="results">
            {result.failures.map((failure, index) => (
              <li key={`${String(index)} ${failure.url}`}>
                <span class="mono">{failure.url}</span>
                <span class="error">{failure.error}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** Many links at once: paste text, see what was found, create a context for each. */
export function BulkPanel({ state }: { readonly state: BulkState }) {
  const urls = state.urls.value;
  const busy = state.busy.value;
  return (
    <div class="stack">
      <div>
        <label for="bulk-text">{t('popupBulkLabel')}</label>
        <textarea
          id="bulk-text"
          rows={5}
          spellcheck={false}
          aria-describedby="bulk-hint"
          value={state.text.value}
          onInput={(event) => {
            state.text.value = event.currentTarget.value;
          }}
        />
        <p id="bulk-hint" class="hint muted">
          {t('popupBulkHint')}
        </p>
      </div>
      <FoundList state={state} />
      <div class="row">
        <Button class="primary" busy={busy} unavailable={urls.length === 0 || state.tooMany.value} onClick={() => void state.createAll()}>
          {t('popupCreateAll')}
        </Button>
        <BusyNote shown={busy} text={t('popupWorking')} />
      </div>
      <NoticeLine notice={state.notice.value} />
      <Results state={state} />
    </div>
  );
}

export const tab: TabPanel = (deps, settings) => {
  const state = createBulkState(deps, settings);
  return () => <BulkPanel state={state} />;
};
