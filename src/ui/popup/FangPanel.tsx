import { t } from '../../i18n';
import { NoticeLine } from '../common/NoticeLine';
import { createFangState, type FangState } from './fang-state';
import type { TabPanel } from './deps';

/** Defang or refang text in place, then copy it. */
export function FangPanel({ state }: { readonly state: FangState }) {
  return (
    <div class="stack">
      <div>
        <label for="fang-text">{t('popupFangLabel')}</label>
        <textarea
          id="fang-text"
          rows={6}
          spellcheck={false}
          value={state.text.value}
          onInput={(event) => {
            state.text.value = event.currentTarget.value;
          }}
        />
      </div>
      <div class="row">
        <button type="button" onClick={state.defang}>
          {t('popupDefang')}
        </button>
        <button type="button" onClick={state.refang}>
          {t('popupRefang')}
        </button>
        <button type="button" onClick={state.unwrap}>
          {t('popupUnwrap')}
        </button>
        <button type="button" onClick={() => void state.copy()}>
          {t('popupCopy')}
        </button>
      </div>
      <NoticeLine notice={state.notice.value} />
    </div>
  );
}

export const tab: TabPanel = (deps) => {
  const state = createFangState(deps);
  return () => <FangPanel state={state} />;
};
