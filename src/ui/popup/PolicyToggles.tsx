import type { Signal } from '@preact/signals';
import { t } from '../../i18n';
import { CheckField, SelectField } from '../common/fields';
import type { IsolateState, ToggleChoice } from './isolate-state';
import { toggleLabel } from './labels';

const CHOICES: readonly ToggleChoice[] = ['default', 'block_all', 'allow_all'];

function isChoice(value: string): value is ToggleChoice {
  return (CHOICES as readonly string[]).includes(value);
}

function ChoiceSelect({ label, choice }: { readonly label: string; readonly choice: Signal<ToggleChoice> }) {
  return (
    <SelectField
      label={label}
      value={choice.value}
      onChange={(value) => {
        if (isChoice(value)) choice.value = value;
      }}
    >
      {CHOICES.map((value) => (
        <option key={value} value={value}>
          {toggleLabel(value)}
        </option>
      ))}
    </SelectField>
  );
}

/** Quick policy toggles for this one session; "default" leaves the configured policy alone. */
export function PolicyToggles({ state }: { readonly state: IsolateState }) {
  return (
    <fieldset>
      <legend>{t('popupTogglesLegend')}</legend>
      <CheckField
        label={t('popupReadOnly')}
        checked={state.readOnly.value}
        onChange={(checked) => {
          state.readOnly.value = checked;
        }}
      />
      <div class="pair">
        <ChoiceSelect label={t('popupFileTransferLabel')} choice={state.fileTransfer} />
        <ChoiceSelect label={t('popupClipboardLabel')} choice={state.clipboard} />
      </div>
    </fieldset>
  );
}
