/** A list of domains for domain_allow / domain_block: add, remove, normalised to punycode. */
import { useId, useRef, useState } from 'preact/hooks';
import { t } from '../../i18n';
import { PolicyIssue } from '../../policy';
import { describedBy } from '../common/fields';
import { FieldGroup } from '../common/groups';
import { focusNeighbour } from '../common/focus';
import type { ControlProps } from './PolicyControls';
import { normalizeDomain } from './policy-draft';
import { TYPE_LABELS, TYPE_NOTES } from './policy-text';

type DomainType = 'domain_allow' | 'domain_block';

const ADD_LABELS = { domain_allow: 'optionsDomainAllowAdd', domain_block: 'optionsDomainBlockAdd' } as const;

export function DomainListEditor({ type, params, locked, error, onChange }: ControlProps<DomainType>) {
  const base = useId();
  const [text, setText] = useState('');
  const [inputError, setInputError] = useState<string | undefined>(undefined);
  const [added, setAdded] = useState('');
  const list = useRef<HTMLUListElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const note = TYPE_NOTES[type];

  function add(): void {
    const typed = text.trim();
    setAdded('');
    if (typed === '') {
      setInputError(t('optionsDomainEmpty'));
      return;
    }
    const host = normalizeDomain(type, typed);
    if (host instanceof PolicyIssue) {
      setInputError(t('optionsDomainInvalid', typed.slice(0, 80)));
      return;
    }
    if (params.includes(host)) {
      setInputError(t('optionsDomainDuplicate', host));
      return;
    }
    setInputError(undefined);
    setText('');
    onChange([...params, host]);
    setAdded(host === typed ? t('optionsDomainAdded', host) : t('optionsDomainAddedAs', [typed.slice(0, 80), host]));
  }

  const inputId = `${base}-input`;
  return (
    <FieldGroup legend={t(TYPE_LABELS[type])} className="field domains" locked={locked} hint={note === undefined ? undefined : t(note)} error={error}>
      {params.length === 0 ? (
        <p class="muted">{t('optionsDomainNone')}</p>
      ) : (
        <ul class="domain-list" ref={list}>
          {params.map((domain) => (
            <li key={domain}>
              <span class="mono">{domain}</span>
              {!locked && (
                <button
                  type="button"
                  aria-label={t('optionsDomainRemove', domain)}
                  onClick={(event) => {
                    // The button goes with its domain: focus moves to a neighbour's, or to the field.
                    focusNeighbour(event.currentTarget, list.current?.querySelectorAll('button') ?? [], input.current);
                    onChange(params.filter((item) => item !== domain));
                  }}
                >
                  {t('optionsRemove')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {!locked && (
        <>
          <label for={inputId}>{t(ADD_LABELS[type])}</label>
          <div class="row">
            <input
              id={inputId}
              ref={input}
              type="text"
              value={text}
              placeholder="example.com"
              spellcheck={false}
              autocomplete="off"
              aria-invalid={inputError !== undefined}
              aria-describedby={describedBy(inputError !== undefined && `${base}-input-error`)}
              onInput={(event) => {
                setText(event.currentTarget.value);
              }}
              onKeyDown={(event) => {
                // Enter adds the domain instead of submitting the whole policy form.
                if (event.key === 'Enter') {
                  event.preventDefault();
                  add();
                }
              }}
            />
            <button type="button" onClick={add}>
              {t('optionsAdd')}
            </button>
          </div>
          {inputError !== undefined && (
            <p id={`${base}-input-error`} class="error">
              {inputError}
            </p>
          )}
          <p role="status" class="muted hint">
            {added}
          </p>
        </>
      )}
    </FieldGroup>
  );
}
