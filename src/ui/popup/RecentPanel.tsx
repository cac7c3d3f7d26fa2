import { useEffect, useRef } from 'preact/hooks';
import { t } from '../../i18n';
import { Button } from '../common/Button';
import { NoticeLine } from '../common/NoticeLine';
import { BusyNote } from './BusyNote';
import './lists.css';
import { RecentItem } from './RecentItem';
import { createRecentState, type RecentState } from './recent-state';
import type { TabPanel } from './deps';

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
        <Button ref={refresh} busy={loading} onClick={() => void state.load()}>
          {t('popupRefresh')}
        </Button>
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

export const tab: TabPanel = (deps) => {
  const state = createRecentState(deps);
  return () => <RecentPanel state={state} />;
};
