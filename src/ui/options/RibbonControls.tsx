/** The ribbon message with its character counter, and a preview of the ribbon. */
import { useId } from 'preact/hooks';
import { t } from '../../i18n';
import { RIBBON_MESSAGE_MAX, codePointLength, isHexColor } from '../../policy';
import { Field, fieldDescription, useFieldIds } from '../common/fields';
import type { ControlProps } from './PolicyControls';
import { TYPE_LABELS } from './policy-text';

export function RibbonMessageControl({ type, params, locked, error, onChange }: ControlProps) {
  const ids = useFieldIds();
  const counterId = useId();
  const value = params[0] ?? '';
  const count = codePointLength(value);
  const over = count > RIBBON_MESSAGE_MAX;
  const hint = t('optionsRibbonMessageHint');
  return (
    <Field ids={ids} label={t(TYPE_LABELS[type])} locked={locked} hint={hint} error={error}>
      <input
        id={ids.input}
        type="text"
        value={value}
        disabled={locked}
        aria-invalid={over || error !== undefined}
        aria-describedby={`${counterId} ${fieldDescription(ids, { hint, error, locked }) ?? ''}`.trim()}
        onInput={(event) => {
          const text = event.currentTarget.value;
          onChange(text === '' ? [] : [text]);
        }}
      />
      <p id={counterId} class={over ? 'counter error' : 'counter muted'}>
        {t('optionsRibbonCounter', [String(count), String(RIBBON_MESSAGE_MAX)])}
      </p>
      <p role="status" class="error">
        {over ? t('optionsRibbonTooLong', [String(count - RIBBON_MESSAGE_MAX), String(RIBBON_MESSAGE_MAX)]) : ''}
      </p>
    </Field>
  );
}

/** What the ribbon will look like, in the chosen colours (unset or invalid colours show the page's). */
export function RibbonPreview({ background, text, message }: { readonly background: string; readonly text: string; readonly message: string }) {
  // Styles set through the CSSOM: allowed by the pages' CSP, unlike style attributes in markup.
  const style = {
    ...(isHexColor(background) ? { backgroundColor: background } : {}),
    ...(isHexColor(text) ? { color: text } : {}),
  };
  return (
    <figure class="field ribbon">
      <figcaption class="label">{t('optionsRibbonPreview')}</figcaption>
      <div class="ribbon-preview" style={style}>
        {message === '' ? t('optionsRibbonPreviewEmpty') : message}
      </div>
    </figure>
  );
}
