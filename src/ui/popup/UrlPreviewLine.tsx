import { t } from '../../i18n';
import type { WrappedChoice } from './isolate-state';
import type { UrlPreview } from './url-preview';

interface Props {
  readonly id: string;
  readonly preview: UrlPreview;
  /** A submit error already says why the URL is refused: do not say it twice. */
  readonly hideRefusal: boolean;
  /** Where the settings ask: which the analyst chose, and how to change it. */
  readonly wrapped: WrappedChoice;
  readonly onChoose: (choice: WrappedChoice) => void;
}

type OkPreview = Extract<UrlPreview, { kind: 'ok' }>;

/** A wrapped link under the "ask" setting: the real target or the link as written. */
function Choice({ preview, wrapped, onChoose }: { readonly preview: OkPreview } & Pick<Props, 'wrapped' | 'onChoose'>) {
  if (!preview.choice) return null;
  const options = [
    { value: 'unwrap', label: t('popupUnwrapChoiceReal'), href: preview.href },
    { value: 'keep', label: t('popupUnwrapChoiceWrapper'), href: preview.choice.href },
  ] as const;
  return (
    <fieldset>
      <legend>{t('popupUnwrapChoice', preview.unwrappedFrom)}</legend>
      {options.map((option) => (
        <label key={option.value} class="inline">
          <input
            type="radio"
            name="wrapped"
            value={option.value}
            checked={wrapped === option.value}
            onChange={() => {
              onChoose(option.value);
            }}
          />
          {option.label} <span class="mono muted">{option.href}</span>
        </label>
      ))}
    </fieldset>
  );
}

/** The target that opens, its host, and what wrapped it. */
function Target({ preview, wrapped }: { readonly preview: OkPreview; readonly wrapped: WrappedChoice }) {
  // Where the settings ask and the analyst chose the link as written, that is what opens.
  const kept = preview.choice !== undefined && wrapped === 'keep';
  const opens = kept ? (preview.choice ?? preview) : preview;
  return (
    <dl>
      <dt>{t('popupPreviewTarget')}</dt>
      <dd class="mono">{opens.href}</dd>
      <dt>{t('popupPreviewHost')}</dt>
      <dd class="mono">{opens.host}</dd>
      {preview.unwrappedFrom !== '' && !kept && (
        <>
          <dt>{t('popupPreviewUnwrappedLabel')}</dt>
          <dd>{t('popupPreviewUnwrappedFrom', preview.unwrappedFrom)}</dd>
        </>
      )}
      {preview.wrapper && (
        <>
          <dt>{t('popupPreviewWrapped')}</dt>
          <dd>{preview.wrapper.opaque ? t('popupPreviewOpaque', preview.wrapper.name) : t('popupPreviewKept', preview.wrapper.name)}</dd>
        </>
      )}
    </dl>
  );
}

/** What the typed text becomes: the target and its host in punycode, what it was wrapped by, or why it is refused. */
export function UrlPreviewLine({ id, preview, hideRefusal, wrapped, onChoose }: Props) {
  return (
    <div id={id} class="preview" aria-live="polite">
      {preview.kind === 'ok' && <Target preview={preview} wrapped={wrapped} />}
      {preview.kind === 'ok' && <Choice preview={preview} wrapped={wrapped} onChoose={onChoose} />}
      {preview.kind === 'refused' && !hideRefusal && <p class="error">{preview.message}</p>}
    </div>
  );
}
