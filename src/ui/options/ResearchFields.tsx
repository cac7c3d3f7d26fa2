/** Research session defaults: egress location, browser profile, categories. */
import { useId } from 'preact/hooks';
import { BROWSER_NAMES, BROWSER_OS } from '../../api/params';
import { EGRESS_REGIONS, REGION_NAMES } from '../../egress';
import { t } from '../../i18n';
import type { MessageKey } from '../../i18n';
import { Field, LockedNote, describedBy, fieldDescription, useFieldIds } from './fields';
import type { BrowserName, BrowserOs, SessionDraft, SessionField } from './session-draft';

const OS_LABELS: { readonly [O in BrowserOs]: MessageKey } = {
  win: 'optionsOsWin',
  mac: 'optionsOsMac',
  linux: 'optionsOsLinux',
  android: 'optionsOsAndroid',
  ios: 'optionsOsIos',
};

const BROWSER_LABELS: { readonly [B in BrowserName]: MessageKey } = {
  chrome: 'optionsBrowserChrome',
  firefox: 'optionsBrowserFirefox',
  edge: 'optionsBrowserEdge',
  safari: 'optionsBrowserSafari',
  tor: 'optionsBrowserTor',
};

/** Category values the service is known to take; others already in settings are kept. */
const CATEGORY_VALUES = {
  availability: [{ value: 'public', label: 'optionsCategoryPublic' }],
  connectivity: [
    { value: 'datacenter', label: 'optionsCategoryDatacenter' },
    { value: 'isp', label: 'optionsCategoryIsp' },
  ],
} as const satisfies Record<'availability' | 'connectivity', readonly { value: string; label: MessageKey }[]>;

function isOs(value: string): value is BrowserOs {
  return (BROWSER_OS as readonly string[]).includes(value);
}

function isBrowserName(value: string): value is BrowserName {
  return (BROWSER_NAMES as readonly string[]).includes(value);
}

interface Props {
  readonly draft: SessionDraft;
  readonly errors: Partial<Record<SessionField, string>>;
  readonly locked: boolean;
  readonly update: (change: Partial<SessionDraft>) => void;
}

export function ResearchFields({ draft, errors, locked, update }: Props) {
  const base = useId();
  const ids = { egress: useFieldIds(), os: useFieldIds(), browser: useFieldIds(), timezone: useFieldIds(), languages: useFieldIds() };
  const lockedId = `${base}-locked`;

  const categoryGroup = (key: 'availability' | 'connectivity', legend: string) => {
    const known: readonly string[] = CATEGORY_VALUES[key].map((item) => item.value);
    const kept = draft[key].filter((value) => !known.includes(value));
    return (
      <fieldset class="field">
        <legend>{legend}</legend>
        {CATEGORY_VALUES[key].map((item) => (
          <label key={item.value} class="inline">
            <input
              type="checkbox"
              checked={draft[key].includes(item.value)}
              disabled={locked}
              onChange={(event) => {
                const on = event.currentTarget.checked;
                const rest = draft[key].filter((value) => value !== item.value);
                update({ [key]: on ? [...rest, item.value] : rest });
              }}
            />
            {t('optionsPolicyValue', [t(item.label), item.value])}
          </label>
        ))}
        {kept.length > 0 && <p class="muted hint">{t('optionsCategoryKept', kept.join(', '))}</p>}
      </fieldset>
    );
  };

  const textField = (field: 'timezone' | 'languages', label: string, hint: string, placeholder: string) => {
    const fieldIds = ids[field];
    const error = errors[field];
    return (
      <Field ids={fieldIds} label={label} hint={hint} error={error}>
        <input
          id={fieldIds.input}
          type="text"
          value={draft[field]}
          placeholder={placeholder}
          disabled={locked}
          spellcheck={false}
          aria-invalid={error !== undefined}
          aria-describedby={describedBy(fieldDescription(fieldIds, { hint, error }), locked && lockedId)}
          onInput={(event) => {
            update({ [field]: event.currentTarget.value });
          }}
        />
      </Field>
    );
  };

  return (
    <fieldset class="research" aria-describedby={describedBy(`${base}-intro`, locked && lockedId)}>
      <legend>
        <h3>
          {t('optionsResearchTitle')} {locked && <LockedNote id={lockedId} />}
        </h3>
      </legend>
      <p id={`${base}-intro`} class="muted">
        {t('optionsResearchIntro')}
      </p>

      <Field ids={ids.egress} label={t('optionsEgress')} locked={locked}>
        <select
          id={ids.egress.input}
          value={draft.egressRegion}
          disabled={locked}
          aria-describedby={fieldDescription(ids.egress, { locked })}
          onChange={(event) => {
            update({ egressRegion: event.currentTarget.value });
          }}
        >
          <option value="">{t('optionsEgressNone')}</option>
          {REGION_NAMES.map((region) => (
            <optgroup key={region} label={region}>
              <option value={region}>{t('optionsEgressAnywhere', region)}</option>
              {EGRESS_REGIONS[region].map((city) => (
                <option key={city} value={city}>
                  {city}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </Field>

      <div class="field check">
        <label class="inline">
          <input
            type="checkbox"
            checked={draft.useProfile}
            disabled={locked}
            onChange={(event) => {
              update({ useProfile: event.currentTarget.checked });
            }}
          />
          {t('optionsUseProfile')}
        </label>
      </div>
      {draft.useProfile && (
        <div class="profile">
          <Field ids={ids.os} label={t('optionsOs')}>
            <select
              id={ids.os.input}
              value={draft.os}
              disabled={locked}
              onChange={(event) => {
                const value = event.currentTarget.value;
                if (isOs(value)) update({ os: value });
              }}
            >
              {BROWSER_OS.map((os) => (
                <option key={os} value={os}>
                  {t(OS_LABELS[os])}
                </option>
              ))}
            </select>
          </Field>
          <Field ids={ids.browser} label={t('optionsBrowser')}>
            <select
              id={ids.browser.input}
              value={draft.browser}
              disabled={locked}
              onChange={(event) => {
                const value = event.currentTarget.value;
                if (isBrowserName(value)) update({ browser: value });
              }}
            >
              {BROWSER_NAMES.map((name) => (
                <option key={name} value={name}>
                  {t(BROWSER_LABELS[name])}
                </option>
              ))}
            </select>
          </Field>
          {textField('timezone', t('optionsTimezone'), t('optionsTimezoneHint'), 'Europe/Berlin')}
          {textField('languages', t('optionsLanguages'), t('optionsLanguagesHint'), 'en-US,en;q=0.9')}
        </div>
      )}

      {categoryGroup('availability', t('optionsAvailability'))}
      {categoryGroup('connectivity', t('optionsConnectivity'))}
    </fieldset>
  );
}
