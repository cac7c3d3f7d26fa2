/**
 * Research session choices: the egress location (grouped by region), the browser
 * profile and the egress categories, with the names of the fixed choices. The popup
 * chooses them for one session, the options page sets the defaults; the words and the
 * way the profile is switched on differ.
 */
import { BROWSER_NAMES, BROWSER_OS } from '../../service/values';
import { EGRESS_REGIONS, REGION_NAMES } from '../../egress';
import { t, type MessageKey } from '../../i18n';
import { CheckField, SelectField, TextField } from './fields';
import { CheckboxGroup, FieldGroup } from './groups';
import type { BrowserName, BrowserOs, ResearchDraft } from './research';

/** Category values offered as checkboxes; other values already chosen are kept as they are. */
const CATEGORY_VALUES = {
  availability: ['public'],
  connectivity: ['datacenter', 'isp'],
} as const satisfies Record<'availability' | 'connectivity', readonly string[]>;

type CategoryKey = keyof typeof CATEGORY_VALUES;

const OS_LABELS: { readonly [O in BrowserOs]: MessageKey } = {
  win: 'researchOsWin',
  mac: 'researchOsMac',
  linux: 'researchOsLinux',
  android: 'researchOsAndroid',
  ios: 'researchOsIos',
};

const BROWSER_LABELS: { readonly [B in BrowserName]: MessageKey } = {
  chrome: 'researchBrowserChrome',
  firefox: 'researchBrowserFirefox',
  edge: 'researchBrowserEdge',
  safari: 'researchBrowserSafari',
  tor: 'researchBrowserTor',
};

function isOs(value: string): value is BrowserOs {
  return (BROWSER_OS as readonly string[]).includes(value);
}

function isBrowserName(value: string): value is BrowserName {
  return (BROWSER_NAMES as readonly string[]).includes(value);
}

/** `list` with `value` added at the end (on) or taken out (off). */
function toggled(list: readonly string[], value: string, on: boolean): string[] {
  const without = list.filter((entry) => entry !== value);
  return on ? [...without, value] : without;
}

/** How the browser profile is switched on. */
export type ProfileSwitch =
  /** A "none" entry first in the system list; time zone and languages stay as they are. */
  | { readonly kind: 'none-option'; readonly none: MessageKey }
  /** A checkbox that shows the system, the browser, the time zone and the languages. */
  | {
      readonly kind: 'checkbox';
      readonly label: MessageKey;
      readonly texts: { readonly [F in ProfileText]: { readonly label: MessageKey; readonly hint: MessageKey } };
    };

type ProfileText = 'timezone' | 'languages';

/** Examples, the same in every language. */
const PLACEHOLDERS: { readonly [F in ProfileText]: string } = { timezone: 'Europe/Berlin', languages: 'en-US,en;q=0.9' };

/** The words of one page. */
export interface ResearchWords {
  readonly legend: MessageKey;
  readonly intro?: MessageKey;
  /** The egress entry that leaves the location unset. */
  readonly egressNone: MessageKey;
  readonly os: MessageKey;
  readonly browser: MessageKey;
  readonly profile: ProfileSwitch;
  /** The words for each category value (a value without words shows as it is). */
  readonly categories: Readonly<Record<string, MessageKey>>;
  /** A category's words with its value, such as "$1 ($2)"; the words alone when undefined. */
  readonly categoryFormat?: MessageKey;
  /** "Also kept: …", for chosen values that have no checkbox; not shown when undefined. */
  readonly kept?: MessageKey;
}

interface Props {
  readonly words: ResearchWords;
  readonly draft: ResearchDraft;
  readonly onChange: (change: Partial<ResearchDraft>) => void;
  readonly locked?: boolean;
  readonly errors?: { readonly [F in ProfileText]?: string | undefined };
  /** The legend as a heading (a part of a section). */
  readonly heading?: boolean;
}

function EgressOptions({ none }: { readonly none: MessageKey }) {
  return (
    <>
      <option value="">{t(none)}</option>
      {REGION_NAMES.map((region) => (
        <optgroup key={region} label={region}>
          <option value={region}>{t('researchEgressAnywhere', region)}</option>
          {EGRESS_REGIONS[region].map((city) => (
            <option key={city} value={city}>
              {city}
            </option>
          ))}
        </optgroup>
      ))}
    </>
  );
}

function categoryText(words: ResearchWords, value: string): string {
  const key = words.categories[value];
  if (key === undefined) return value;
  return words.categoryFormat === undefined ? t(key) : t(words.categoryFormat, [t(key), value]);
}

export function ResearchFields({ words, draft, onChange, locked = false, errors = {}, heading = false }: Props) {
  const profile = words.profile;
  const none = profile.kind === 'none-option';

  const systemAndBrowser = (
    <>
      <SelectField
        label={t(words.os)}
        locked={locked}
        value={draft.useProfile ? draft.os : ''}
        onChange={(value) => {
          onChange(isOs(value) ? { useProfile: true, os: value } : { useProfile: false });
        }}
      >
        {none && <option value="">{t(profile.none)}</option>}
        {BROWSER_OS.map((os) => (
          <option key={os} value={os}>
            {t(OS_LABELS[os])}
          </option>
        ))}
      </SelectField>
      <SelectField
        label={t(words.browser)}
        locked={locked}
        disabled={!draft.useProfile}
        value={draft.browser}
        onChange={(value) => {
          if (isBrowserName(value)) onChange({ browser: value });
        }}
      >
        {BROWSER_NAMES.map((name) => (
          <option key={name} value={name}>
            {t(BROWSER_LABELS[name])}
          </option>
        ))}
      </SelectField>
    </>
  );

  const categories = (key: CategoryKey, legend: MessageKey) => {
    const offered: readonly string[] = CATEGORY_VALUES[key];
    const kept = draft[key].filter((value) => !offered.includes(value));
    return (
      <CheckboxGroup
        legend={t(legend)}
        className="field"
        locked={locked}
        values={offered}
        chosen={draft[key]}
        labelOf={(value) => categoryText(words, value)}
        onToggle={(value, on) => {
          onChange({ [key]: toggled(draft[key], value, on) });
        }}
      >
        {words.kept !== undefined && kept.length > 0 && <p class="muted hint">{t(words.kept, kept.join(', '))}</p>}
      </CheckboxGroup>
    );
  };

  return (
    <FieldGroup legend={t(words.legend)} className="research" heading={heading} locked={locked} hint={words.intro === undefined ? undefined : t(words.intro)}>
      <SelectField
        label={t('researchEgress')}
        locked={locked}
        value={draft.egressRegion}
        onChange={(value) => {
          onChange({ egressRegion: value });
        }}
      >
        <EgressOptions none={words.egressNone} />
      </SelectField>
      {profile.kind === 'none-option' ? (
        <div class="pair">{systemAndBrowser}</div>
      ) : (
        <>
          <CheckField
            label={t(profile.label)}
            locked={locked}
            checked={draft.useProfile}
            onChange={(checked) => {
              onChange({ useProfile: checked });
            }}
          />
          {draft.useProfile && (
            <div class="profile">
              {systemAndBrowser}
              {(['timezone', 'languages'] as const).map((field) => (
                <TextField
                  key={field}
                  label={t(profile.texts[field].label)}
                  hint={t(profile.texts[field].hint)}
                  error={errors[field]}
                  locked={locked}
                  placeholder={PLACEHOLDERS[field]}
                  value={draft[field]}
                  onInput={(value) => {
                    onChange({ [field]: value });
                  }}
                />
              ))}
            </div>
          )}
        </>
      )}
      {categories('availability', 'researchAvailability')}
      {categories('connectivity', 'researchConnectivity')}
    </FieldGroup>
  );
}
