import { t } from '../../i18n';
import type { UrlPreview } from './url-preview';

interface Props {
  readonly id: string;
  readonly preview: UrlPreview;
  /** A submit error already says why the URL is refused: do not say it twice. */
  readonly hideRefusal: boolean;
}

/** What the typed text becomes: the refanged target and its host in punycode, or why it is refused. */
export function UrlPreviewLine({ id, preview, hideRefusal }: Props) {
  return (
    <div id={id} class="preview" aria-live="polite">
      {preview.kind === 'ok' && (
        <dl>
          <dt>{t('popupPreviewTarget')}</dt>
          <dd class="mono">{preview.href}</dd>
          <dt>{t('popupPreviewHost')}</dt>
          <dd class="mono">{preview.host}</dd>
        </dl>
      )}
      {preview.kind === 'refused' && !hideRefusal && <p class="error">{preview.message}</p>}
    </div>
  );
}
