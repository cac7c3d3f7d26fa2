import { t } from '../../i18n';
import { NoticeLine } from '../common/NoticeLine';
import type { Later } from './later';

/** In place of code still loading: "Loading…", or why it could not be loaded. */
export function LaterNote({ later }: { readonly later: Later<unknown> }) {
  const notice = later.notice.value;
  return notice === null ? <p class="muted">{t('popupLoading')}</p> : <NoticeLine notice={notice} />;
}
