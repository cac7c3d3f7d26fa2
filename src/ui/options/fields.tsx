/** Small building blocks shared by the sections: labelled fields, the locked note, notices. */
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

/** The ids a field's description is built from, joined for aria-describedby. */
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

interface FieldProps {
  readonly ids: FieldIds;
  readonly label: string;
  readonly locked?: boolean;
  readonly hint?: string | undefined;
  readonly error?: string | undefined;
  /** The input itself, using ids.input and `aria-describedby={fieldDescription(...)}`. */
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
      {hint !== undefined && (
        <p id={ids.hint} class="muted hint">
          {hint}
        </p>
      )}
      {error !== undefined && (
        <p id={ids.error} class="error">
          {error}
        </p>
      )}
    </div>
  );
}

/** aria-describedby for a Field's control: the hint, the error and the locked note that are shown. */
export function fieldDescription(ids: FieldIds, shown: { hint?: unknown; error?: unknown; locked?: boolean }): string | undefined {
  return describedBy(shown.hint !== undefined && ids.hint, shown.error !== undefined && ids.error, shown.locked === true && ids.locked);
}

export interface Notice {
  readonly kind: 'ok' | 'error' | 'info';
  readonly text: string;
}

/**
 * Two live regions that always exist, so screen readers announce each new text in them:
 * errors at once (alert), the rest politely (status).
 */
export function NoticeLine({ notice }: { readonly notice: Notice | null }) {
  const error = notice?.kind === 'error';
  return (
    <div class="notices">
      <p role="status" class={notice?.kind === 'info' ? 'muted' : 'ok'}>
        {notice !== null && !error ? notice.text : ''}
      </p>
      <p role="alert" class="error">
        {error ? notice.text : ''}
      </p>
    </div>
  );
}

/** A section of the page: a landmark named by its heading. */
export function Section({ id, title, children }: { readonly id: string; readonly title: string; readonly children: ComponentChildren }) {
  const headingId = `${id}-heading`;
  return (
    <section id={id} aria-labelledby={headingId} class="card section">
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  );
}
