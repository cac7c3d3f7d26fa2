import type { Status } from '../../messaging/protocol';
import { t } from '../../i18n';
import { NoticeLine } from '../common/NoticeLine';
import type { PopupState } from './state';

function Configured({ status }: { readonly status: Status }) {
  return (
    <>
      <p class="ok">
        <span class="dot" aria-hidden="true" />
        {status.serviceHost === null ? t('popupStatusReady') : t('popupStatusReadyHost', status.serviceHost)}
      </p>
      {status.identity !== null && <p class="muted">{t('popupStatusIdentity', status.identity)}</p>}
    </>
  );
}

function NotConfigured({ status, onOpenOptions }: { readonly status: Status; readonly onOpenOptions: () => void }) {
  return (
    <>
      <p class="warn">{t('popupStatusNotConfigured')}</p>
      {status.serviceHost !== null && <p class="muted">{t('popupStatusService', status.serviceHost)}</p>}
      {status.problems.length > 0 && (
        <ul class="problems">
          {status.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      <button type="button" class="primary" onClick={onOpenOptions}>
        {t('popupOpenOptions')}
      </button>
    </>
  );
}

/** Configured or not, the service host, and what to do when it is not set up. */
export function StatusLine({ state }: { readonly state: PopupState }) {
  if (!state.ready.value) {
    return (
      <p class="status muted" role="status">
        {t('popupLoading')}
      </p>
    );
  }
  const status = state.status.value;
  const openOptions = () => void state.openOptions();
  return (
    <div class="status">
      {status?.configured === true && <Configured status={status} />}
      {status?.configured === false && <NotConfigured status={status} onOpenOptions={openOptions} />}
      <NoticeLine notice={state.loadNotice.value} />
      {status === null && (
        <button type="button" onClick={openOptions}>
          {t('popupOpenOptions')}
        </button>
      )}
      <NoticeLine notice={state.optionsNotice.value} />
    </div>
  );
}
