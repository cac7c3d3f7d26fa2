import { useId } from 'preact/hooks';
import { t } from '../../i18n';
import type { ContextView, RecentContext } from '../../messaging/protocol';
import { NoticeLine } from '../common/NoticeLine';
import { RecentActions } from './RecentActions';
import type { RecentItemState } from './recent-state';
import { localTime, relativeTime } from './time';
import { wrapperNamesOf } from '../../fang/ids';

interface Props {
  readonly item: RecentItemState;
  readonly now: number;
  /** Where focus goes once this item is deleted. */
  readonly onGone: () => void;
}

function expiryText(expiresSeconds: number, now: number): string {
  if (expiresSeconds <= 0) return t('popupRecentNoExpiry');
  const at = expiresSeconds * 1000;
  return at <= now ? t('popupRecentExpired', relativeTime(at, now)) : t('popupRecentExpires', relativeTime(at, now));
}

function Summary({ context, now }: { readonly context: RecentContext; readonly now: number }) {
  return (
    <>
      <span class="host">{context.host === '' ? t('popupRecentResearch') : context.host}</span>
      {context.name !== '' && <span class="name">{context.name}</span>}
      {context.wrappedBy && context.wrappedBy.length > 0 && <span class="muted small">{t('popupWrappedBy', wrapperNamesOf(context.wrappedBy))}</span>}
      <span class="muted small">
        {t('popupRecentCreated', relativeTime(context.createdAt, now))} · {expiryText(context.expires, now)}
      </span>
    </>
  );
}

function Facts({ details }: { readonly details: ContextView }) {
  const unknown = t('popupUnknown');
  return (
    <dl class="facts">
      <dt>{t('popupRecentUses')}</dt>
      <dd>{details.useCount === null ? unknown : String(details.useCount)}</dd>
      <dt>{t('popupRecentUsesLeft')}</dt>
      <dd>{details.usesLeft === null ? unknown : String(details.usesLeft)}</dd>
      <dt>{t('popupRecentState')}</dt>
      <dd>{details.enabled ? t('popupRecentEnabled') : t('popupRecentDisabled')}</dd>
      {details.expires !== null && (
        <>
          <dt>{t('popupRecentExpiresAt')}</dt>
          <dd>{localTime(details.expires * 1000)}</dd>
        </>
      )}
    </dl>
  );
}

/** One recent context: a summary that expands into live details and actions. */
export function RecentItem({ item, now, onGone }: Props) {
  const detailsId = useId();
  const expanded = item.expanded.value;
  const details = item.details.value;
  return (
    <li class="card recent">
      <button type="button" class="summary" aria-expanded={expanded} aria-controls={expanded ? detailsId : undefined} onClick={() => void item.toggle()}>
        <Summary context={item.context.value} now={now} />
      </button>
      {expanded && (
        <div id={detailsId} class="stack details">
          {details === null && item.busy.value && <p class="muted">{t('popupLoadingDetails')}</p>}
          {details !== null && <Facts details={details} />}
          <RecentActions item={item} onGone={onGone} />
          <NoticeLine notice={item.notice.value} />
        </div>
      )}
    </li>
  );
}
