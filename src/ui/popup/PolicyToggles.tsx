import type { Signal } from '@preact/signals';
import { t } from '../../i18n';
import type { IsolateState, ToggleChoice } from './isolate-state';
import { toggleLabel } from './labels';

const CHOICES: readonly ToggleChoice[] = ['default', 'block_all', 'allow_all'];

function isChoice(value: string): value is ToggleChoice {
  return (CHOICES as readonly string[]).includes(value);
}

function ChoiceSelect({ id, label, choice }: { readonly id: string; readonly label: string; readonly choice: Signal<ToggleChoice> }) {
  return (
    <div>
      <label for={id}>{label}</label>
      <select
        id={id}
        value={choice.value}
        onChange={(event) => {
          const value = event.currentTarget.value;
          if (isChoice(value)) choice.value = value;
        }}
      >
        {CHOICES.map((value) => (
          <option key={value} value={value}>
            {toggleLabel(value)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Quick policy toggles for this one session; "default" leaves the configured policy alone. */
export function PolicyToggles({ state }: { readonly state: IsolateState }) {
  return (
    <fieldset>
      <legend>{t('popupTogglesLegend')}</legend>
      <label class="inline">
        <input
          type="checkbox"
          checked={state.readOnly.value}
          onChange={(event) => {
            state.readOnly.value = event.currentTarget.checked;
          }}
        />
        {t('popupReadOnly')}
      </label>
      <div class="pair">
        <ChoiceSelect id="toggle-file-transfer" label={t('popupFileTransferLabel')} choice={state.fileTransfer} />
        <ChoiceSelect id="toggle-clipboard" label={t('popupClipboardLabel')} choice={state.clipboard} />
      </div>
    </fieldset>
  );
}
