import { useEffect, useRef } from 'preact/hooks';
import { t } from '../../i18n';
import { NoticeLine } from '../common/NoticeLine';
import { BusyNote } from './BusyNote';
import { RecentItem } from './RecentItem';
import type { RecentState } from './recent-state';

/** The contexts this browser created, newest first; reloaded each time the tab opens. */
export function RecentPanel({ state }: { readonly state: RecentState }) {
  const refresh = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    void state.load();
  }, [state]);
  const items = state.items.value;
  const loading = state.loading.value;
  const now = state.now();
  return (
    <div class="stack">
      <div class="row">
        <button type="button" ref={refresh} disabled={loading} onClick={() => void state.load()}>
          {t('popupRefresh')}
        </button>
        <BusyNote shown={loading} text={t('popupLoading')} />
      </div>
      <NoticeLine notice={state.notice.value} />
      {state.loaded.value && items.length === 0 && <p class="muted">{t('popupRecentEmpty')}</p>}
      {items.length > 0 && (
        <ul class="recent-list" aria-label={t('popupRecentListLabel')}>
          {items.map((item) => (
            <RecentItem
              key={item.id}
              item={item}
              now={now}
              onGone={() => {
                refresh.current?.focus();
              }}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
