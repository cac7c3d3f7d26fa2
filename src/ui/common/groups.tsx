/**
 * Fieldsets for both pages: a legend (with the locked note beside it), a hint, the
 * controls and an inline error, each text tied to the fieldset by aria-describedby.
 */
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import { Hint, InlineError, LockedNote, describedBy, type Described } from './fields';

interface FieldGroupProps extends Omit<Described, 'label' | 'disabled'> {
  readonly legend: string;
  readonly className?: string;
  /** The legend as a heading (a part of a section). */
  readonly heading?: boolean;
  readonly children: ComponentChildren;
}

/** A fieldset: the legend (with the locked note), a hint, the controls and an inline error. */
export function FieldGroup({ legend, locked = false, hint, error, className, heading = false, children }: FieldGroupProps) {
  const base = useId();
  const ids = { hint: `${base}-hint`, error: `${base}-error`, locked: `${base}-locked` };
  const title = (
    <>
      {legend} {locked && <LockedNote id={ids.locked} />}
    </>
  );
  return (
    <fieldset class={className} aria-describedby={describedBy(hint !== undefined && ids.hint, error !== undefined && ids.error, locked && ids.locked)}>
      <legend>{heading ? <h3>{title}</h3> : title}</legend>
      <Hint id={ids.hint} text={hint} />
      {children}
      <InlineError id={ids.error} text={error} />
    </fieldset>
  );
}

interface CheckboxGroupProps extends Omit<FieldGroupProps, 'children' | 'heading'> {
  readonly values: readonly string[];
  readonly chosen: readonly string[];
  readonly labelOf: (value: string) => string;
  readonly onToggle: (value: string, on: boolean) => void;
  /** Shown after the boxes. */
  readonly children?: ComponentChildren;
}

/** A fieldset of checkboxes, one per value. */
export function CheckboxGroup({ values, chosen, labelOf, onToggle, locked = false, children, ...group }: CheckboxGroupProps) {
  return (
    <FieldGroup {...group} locked={locked}>
      {values.map((value) => (
        <label key={value} class="inline">
          <input
            type="checkbox"
            checked={chosen.includes(value)}
            disabled={locked}
            onChange={(event) => {
              onToggle(value, event.currentTarget.checked);
            }}
          />
          {labelOf(value)}
        </label>
      ))}
      {children}
    </FieldGroup>
  );
}
