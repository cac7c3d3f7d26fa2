/** Controls for the policy types with fixed values (choices, clipboard) and the colours. */
import { useRef } from 'preact/hooks';
import { t } from '../../i18n';
import { isHexColor, type KnownPolicyType } from '../../policy';
import { Field, SelectField, fieldDescription, useFieldIds } from '../common/fields';
import { CheckboxGroup } from '../common/groups';
import { toggleMulti } from './policy-draft';
import { TYPE_LABELS, TYPE_NOTES, valueLabel } from './policy-text';

export interface ControlProps<T extends KnownPolicyType = KnownPolicyType> {
  readonly type: T;
  readonly params: readonly string[];
  readonly locked: boolean;
  /** The policy issue to show at this control, if any. */
  readonly error: string | undefined;
  readonly onChange: (params: string[]) => void;
}

/** "Block both directions (block_all)": the words and the value as the service spells it. */
function optionText(type: KnownPolicyType, value: string): string {
  const label = valueLabel(type, value);
  return label === undefined ? value : t('optionsPolicyValue', [t(label), value]);
}

function noteOf(type: KnownPolicyType): string | undefined {
  const note = TYPE_NOTES[type];
  return note === undefined ? undefined : t(note);
}

type ChoiceProps = ControlProps & { readonly values: readonly string[]; readonly defaultValue: string | undefined };

export function ChoiceControl({ type, params, locked, error, onChange, values, defaultValue }: ChoiceProps) {
  return (
    <SelectField
      label={t(TYPE_LABELS[type])}
      locked={locked}
      hint={noteOf(type)}
      error={error}
      value={params[0] ?? ''}
      onChange={(value) => {
        onChange(value === '' ? [] : [value]);
      }}
    >
      <option value="">{defaultValue === undefined ? t('optionsPolicyNotSet') : t('optionsPolicyNotSetDefault', defaultValue)}</option>
      {values.map((value) => (
        <option key={value} value={value}>
          {optionText(type, value)}
        </option>
      ))}
    </SelectField>
  );
}

type MultiProps = ControlProps & { readonly values: readonly string[]; readonly exclusive: readonly string[] };

export function MultiControl({ type, params, locked, error, onChange, values, exclusive }: MultiProps) {
  return (
    <CheckboxGroup
      legend={t(TYPE_LABELS[type])}
      className="field multi"
      locked={locked}
      hint={t('optionsPolicyExclusiveHint', exclusive.join(', '))}
      error={error}
      values={values}
      chosen={params}
      labelOf={(value) => optionText(type, value)}
      onToggle={(value, on) => {
        onChange(toggleMulti(params, value, on, { values, exclusive }));
      }}
    />
  );
}

/** `#abc` -> `#aabbcc`: the colour input takes the long form only. */
function longHex(value: string): string {
  if (value.length !== 4) return value.toLowerCase();
  const [r = '0', g = '0', b = '0'] = [...value.slice(1)];
  return `#${r}${r}${g}${g}${b}${b}`.toLowerCase();
}

export function ColorControl({ type, params, locked, error, onChange }: ControlProps) {
  const ids = useFieldIds();
  const textInput = useRef<HTMLInputElement>(null);
  const label = t(TYPE_LABELS[type]);
  const value = params[0] ?? '';
  const valid = value === '' || isHexColor(value);
  const shownError = error ?? (valid ? undefined : t('optionsColorInvalid'));
  const hint = t('optionsColorHint');
  return (
    <Field ids={ids} label={label} locked={locked} hint={hint} error={shownError}>
      <div class="row color-row">
        <input
          type="color"
          aria-label={t('optionsColorPicker', label)}
          value={value !== '' && valid ? longHex(value) : '#000000'}
          disabled={locked}
          onInput={(event) => {
            onChange([event.currentTarget.value]);
          }}
        />
        <input
          id={ids.input}
          ref={textInput}
          type="text"
          class="color-text"
          value={value}
          placeholder="#rrggbb"
          disabled={locked}
          spellcheck={false}
          aria-invalid={shownError !== undefined}
          aria-describedby={fieldDescription(ids, { hint, error: shownError, locked })}
          onInput={(event) => {
            const text = event.currentTarget.value;
            onChange(text === '' ? [] : [text]);
          }}
        />
        {value !== '' && !locked && (
          <button
            type="button"
            aria-label={t('optionsColorClear', label)}
            onClick={() => {
              // The button goes with the value: focus stays in the control.
              textInput.current?.focus();
              onChange([]);
            }}
          >
            {t('optionsClear')}
          </button>
        )}
      </div>
    </Field>
  );
}
