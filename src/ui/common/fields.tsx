/**
 * Labelled form controls for both pages: a label (with the locked note beside it), the
 * control, a hint and an inline error, each text tied to the control by aria-describedby.
 */
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import { t } from '../../i18n';

/** "Set by your organisation", beside a label (outside it, so the label stays the accessible name). */
export function LockedNote({ id }: { readonly id: string }) {
  return (
    <span id={id} class="locked">
      {t('optionsLocked')}
    </span>
  );
}

/** The ids a control's description is built from, joined for aria-describedby. */
export function describedBy(...ids: (string | false | undefined)[]): string | undefined {
  const list = ids.filter((id): id is string => typeof id === 'string' && id !== '');
  return list.length > 0 ? list.join(' ') : undefined;
}

export interface FieldIds {
  readonly input: string;
  readonly hint: string;
  readonly error: string;
  readonly locked: string;
}

/** Ids for one field and the texts describing it. */
export function useFieldIds(): FieldIds {
  const base = useId();
  return { input: `${base}-input`, hint: `${base}-hint`, error: `${base}-error`, locked: `${base}-locked` };
}

/** aria-describedby for a field's control: the hint, the error and the locked note that are shown. */
export function fieldDescription(ids: FieldIds, shown: { hint?: unknown; error?: unknown; locked?: boolean }): string | undefined {
  return describedBy(shown.hint !== undefined && ids.hint, shown.error !== undefined && ids.error, shown.locked === true && ids.locked);
}

/** A hint under a control, when there is one. */
export function Hint({ id, text }: { readonly id: string; readonly text: string | undefined }) {
  if (text === undefined) return null;
  return (
    <p id={id} class="muted hint">
      {text}
    </p>
  );
}

/** An error beside the control it is about, when there is one. */
export function InlineError({ id, text }: { readonly id: string; readonly text: string | undefined }) {
  if (text === undefined) return null;
  return (
    <p id={id} class="error">
      {text}
    </p>
  );
}

/** What every labelled control takes besides its value. */
export interface Described {
  readonly label: string;
  /** Set by the organisation: the control is disabled and says so. */
  readonly locked?: boolean;
  readonly disabled?: boolean;
  readonly hint?: string | undefined;
  readonly error?: string | undefined;
}

interface FieldProps extends Omit<Described, 'disabled'> {
  readonly ids: FieldIds;
  /** The control itself, using ids.input and `aria-describedby={fieldDescription(...)}`. */
  readonly children: ComponentChildren;
}

/** A label (with the locked note beside it), the control, a hint and an inline error. */
export function Field({ ids, label, locked = false, hint, error, children }: FieldProps) {
  return (
    <div class="field">
      <div class="label-row">
        <label for={ids.input}>{label}</label>
        {locked && <LockedNote id={ids.locked} />}
      </div>
      {children}
      <Hint id={ids.hint} text={hint} />
      <InlineError id={ids.error} text={error} />
    </div>
  );
}

interface TextFieldProps extends Described {
  readonly value: string;
  readonly onInput: (value: string) => void;
  /** A password field is never spell-checked or filled from saved passwords. */
  readonly type?: 'text' | 'password' | 'number';
  readonly placeholder?: string | undefined;
  readonly inputMode?: 'url' | 'numeric' | undefined;
  /** For numbers: the whole numbers allowed. */
  readonly min?: number;
  readonly max?: number;
}

/** A labelled text, password or number input. */
export function TextField({
  label,
  locked = false,
  disabled = false,
  hint,
  error,
  value,
  onInput,
  type = 'text',
  placeholder,
  inputMode,
  min,
  max,
}: TextFieldProps) {
  const ids = useFieldIds();
  const shared = {
    id: ids.input,
    value,
    placeholder,
    disabled: locked || disabled,
    spellcheck: false,
    'aria-invalid': error !== undefined,
    'aria-describedby': fieldDescription(ids, { hint, error, locked }),
    onInput: (event: { readonly currentTarget: HTMLInputElement }) => {
      onInput(event.currentTarget.value);
    },
  };
  return (
    <Field ids={ids} label={label} locked={locked} hint={hint} error={error}>
      {type === 'password' ? (
        <input type="password" autocomplete="new-password" {...shared} />
      ) : type === 'number' ? (
        <input type="number" inputMode="numeric" min={min} max={max} step={1} autocomplete="off" {...shared} />
      ) : (
        <input type="text" inputMode={inputMode} autocomplete="off" {...shared} />
      )}
    </Field>
  );
}

interface SelectFieldProps extends Described {
  readonly value: string;
  readonly onChange: (value: string) => void;
  /** The options (and option groups). */
  readonly children: ComponentChildren;
}

/** A labelled select. */
export function SelectField({ label, locked = false, disabled = false, hint, error, value, onChange, children }: SelectFieldProps) {
  const ids = useFieldIds();
  return (
    <Field ids={ids} label={label} locked={locked} hint={hint} error={error}>
      <select
        id={ids.input}
        value={value}
        disabled={locked || disabled}
        aria-invalid={error !== undefined}
        aria-describedby={fieldDescription(ids, { hint, error, locked })}
        onChange={(event) => {
          onChange(event.currentTarget.value);
        }}
      >
        {children}
      </select>
    </Field>
  );
}

interface CheckFieldProps extends Omit<Described, 'error'> {
  readonly checked: boolean;
  readonly onChange: (checked: boolean) => void;
}

/** A checkbox with its label, the locked note and a hint. */
export function CheckField({ label, locked = false, disabled = false, hint, checked, onChange }: CheckFieldProps) {
  const ids = useFieldIds();
  return (
    <div class="field check">
      <label class="inline">
        <input
          type="checkbox"
          checked={checked}
          disabled={locked || disabled}
          aria-describedby={fieldDescription(ids, { hint, locked })}
          onChange={(event) => {
            onChange(event.currentTarget.checked);
          }}
        />
        {label}
      </label>
      {locked && <LockedNote id={ids.locked} />}
      <Hint id={ids.hint} text={hint} />
    </div>
  );
}
