/**
 * The landing page (isolate.html): where the rules send a navigation they stopped. It
 * checks that the rules sent it, then opens the target in isolation in this tab, or asks
 * first when the settings say so. Nothing here loads the target on this computer, but the
 * user's own "Open on this computer" where the rules allow it.
 */
import { useEffect, useState } from 'preact/hooks';
import { t } from '../../i18n';
import { errorText } from '../options/errors';
import type { Landed } from '../../messaging/protocol';
import { openInIsolation, settle, type Landing, type LandingDeps, type Stopped } from './landing';

interface Props {
  readonly deps: LandingDeps;
  /** The fragment the page was opened with (read, then taken out of the address, by main.tsx). */
  readonly hash: string;
  /** The background's answer about it, asked for as the page's script started (main.tsx). */
  readonly first: Promise<Landed>;
}

function Reason({ stopped }: { readonly stopped: Stopped }) {
  const { reason } = stopped;
  if (reason === undefined) return null;
  return <p class="muted">{'from' in reason ? t('isolateReasonFrom', reason.from) : t('isolateReasonTo', reason.to)}</p>;
}

/** The target as text, never as a link: its host in bold, then the whole URL. */
function Target({ stopped }: { readonly stopped: Stopped }) {
  return (
    <div class="target">
      <p class="target-host">
        <strong>{stopped.host}</strong>
      </p>
      <p class="target-url" aria-label={t('isolateTargetLabel')}>
        {stopped.url}
      </p>
    </div>
  );
}

export function App({ deps, hash, first }: Props) {
  const [state, setState] = useState<Landing>({ phase: 'checking' });
  const open = (stopped: Stopped): void => {
    setState({ phase: 'opening', stopped });
    void openInIsolation(stopped, deps).then(setState);
  };
  useEffect(() => {
    void settle(hash, first, deps).then(setState);
    // Once, for the fragment the page was opened with.
  }, []);

  if (state.phase === 'checking') return <main class="landing" aria-busy="true" data-phase="checking" />;
  if (state.phase === 'refused') {
    return (
      <main class="landing" data-ready="true" data-phase="refused">
        <h1>{t('isolateRefusedHeading')}</h1>
        <p>{t('isolateRefused')}</p>
      </main>
    );
  }
  const { stopped } = state;
  if (state.phase === 'opening') {
    return (
      <main class="landing" data-ready="true" data-phase="opening" aria-busy="true">
        <h1>{t('isolateOpening')}</h1>
        <Target stopped={stopped} />
        <Reason stopped={stopped} />
      </main>
    );
  }
  if (state.phase === 'failed') {
    return (
      <main class="landing" data-ready="true" data-phase="failed">
        <h1>{t('isolateFailedHeading')}</h1>
        <Target stopped={stopped} />
        <p class="notice error" role="alert">
          {errorText(state.error)}
        </p>
        <p>{t('isolateFailedNext')}</p>
        <div class="actions">
          <button
            type="button"
            class="primary"
            onClick={() => {
              open(stopped);
            }}
          >
            {t('isolateTryAgain')}
          </button>
          <button type="button" onClick={() => void deps.openOptions()}>
            {t('isolateOptionsButton')}
          </button>
        </div>
      </main>
    );
  }
  return (
    <main class="landing" data-ready="true" data-phase="ask">
      <h1>{t('isolateAskHeading')}</h1>
      <Target stopped={stopped} />
      <Reason stopped={stopped} />
      <div class="actions">
        {/* The page's one question: its answer is the first thing a keyboard needs. */}
        <button
          type="button"
          class="primary"
          autoFocus
          onClick={() => {
            open(stopped);
          }}
        >
          {t('isolateOpenButton')}
        </button>
        <button type="button" onClick={deps.leave}>
          {t('isolateCancelButton')}
        </button>
      </div>
      {stopped.local ? (
        <div class="local">
          <p class="muted">{t('isolateLocalWarning')}</p>
          <button
            type="button"
            class="danger"
            onClick={() => {
              deps.replaceWith(stopped.url);
            }}
          >
            {t('isolateLocalButton')}
          </button>
        </div>
      ) : null}
    </main>
  );
}
