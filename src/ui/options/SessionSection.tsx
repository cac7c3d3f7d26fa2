/** Session defaults (uses, expiry, own domain, tabs, bulk threshold) and research defaults. */
import { useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { t, type MessageKey } from '../../i18n';
import { EXPIRY_PRESETS, MAX_BULK_THRESHOLD, MAX_CUSTOM_EXPIRY_MINUTES, MAX_USES, type ExpiryPreset } from '../../settings/limits';
import { Button } from '../common/Button';
import { CheckField, SelectField, TextField } from '../common/fields';
import { NoticeLine } from '../common/NoticeLine';
import { errorNotice, infoNotice, okNotice } from '../common/notice';
import { ResearchFields, type ResearchWords } from '../common/ResearchFields';
import { useTask } from '../common/task';
import { useDraft } from './draft';
import { failed } from './errors';
import { Section } from './Section';
import { SESSION_KEYS, isExpiryPreset, sameValue, sessionDraftOf, sessionValuesOf, type SessionField, type SessionKey } from './session-draft';
import { isLocked, type SectionProps } from './state';
import { UNWRAP_MODES, type UnwrapMode } from '../../resolve/modes';

const UNWRAP_LABELS: { readonly [M in UnwrapMode]: MessageKey } = {
  unwrap: 'optionsUnwrapUnwrap',
  ask: 'optionsUnwrapAsk',
  keep: 'optionsUnwrapKeep',
};

function isUnwrapMode(value: string): value is UnwrapMode {
  return (UNWRAP_MODES as readonly string[]).includes(value);
}

const PRESET_LABELS: { readonly [P in ExpiryPreset]: MessageKey } = {
  none: 'optionsExpiryNone',
  '1h': 'optionsExpiry1h',
  '8h': 'optionsExpiry8h',
  '24h': 'optionsExpiry24h',
  '7d': 'optionsExpiry7d',
  custom: 'optionsExpiryCustom',
};

/** The research defaults: a profile only when switched on, with its time zone and languages. */
const RESEARCH_WORDS: ResearchWords = {
  legend: 'optionsResearchTitle',
  intro: 'optionsResearchIntro',
  egressNone: 'optionsEgressNone',
  os: 'optionsOs',
  browser: 'optionsBrowser',
  profile: {
    kind: 'checkbox',
    label: 'optionsUseProfile',
    texts: {
      timezone: { label: 'optionsTimezone', hint: 'optionsTimezoneHint' },
      languages: { label: 'optionsLanguages', hint: 'optionsLanguagesHint' },
    },
  },
  categories: { public: 'optionsCategoryPublic', datacenter: 'optionsCategoryDatacenter', isp: 'optionsCategoryIsp' },
  categoryFormat: 'optionsPolicyValue',
  kept: 'optionsCategoryKept',
};

export function SessionSection({ state, view }: SectionProps) {
  const { draft, update, mark, settle } = useDraft(() => sessionDraftOf(view.settings));
  const [errors, setErrors] = useState<Partial<Record<SessionField, string>>>({});
  const task = useTask(failed);
  const locked = (key: SessionKey) => isLocked(view, key);

  function save(event: Event): void {
    event.preventDefault();
    if (task.busy.value) return;
    const current = view.settings;
    const { values, errors: found } = sessionValuesOf(draft, current);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      task.notice.value = errorNotice(t('optionsFixFields'));
      return;
    }
    // Every value the form can get wrong was checked above; the others come from its own choices.
    const patch: Partial<Record<SessionKey, unknown>> = {};
    for (const key of SESSION_KEYS) {
      if (!locked(key) && !sameValue(values[key], current[key])) patch[key] = values[key];
    }
    if (Object.keys(patch).length === 0) {
      task.notice.value = infoNotice(t('optionsNothingChanged'));
      return;
    }
    const edits = mark();
    void task.run(async () => {
      const next = await state.saveSettings(patch);
      settle(edits, sessionDraftOf(next.settings));
      return okNotice(t('optionsSessionSaved'));
    });
  }

  const expiryLocked = locked('expiry');

  /** A whole number from 1 to `max`, typed as text (the draft keeps what was typed). */
  const numberField = (field: 'maxUses' | 'customMinutes' | 'bulkConfirmThreshold', label: string, hint: string, max: number, fieldLocked: boolean) => (
    <TextField
      type="number"
      label={label}
      hint={hint}
      error={errors[field]}
      locked={fieldLocked}
      min={1}
      max={max}
      value={draft[field]}
      onInput={(value) => {
        update({ [field]: value });
      }}
    />
  );

  return (
    <Section id="session" title={t('optionsSessionTitle')}>
      <form onSubmit={save} noValidate>
        {numberField('maxUses', t('optionsMaxUses'), t('optionsMaxUsesHint'), MAX_USES, locked('maxUses'))}

        <SelectField
          label={t('optionsExpiry')}
          locked={expiryLocked}
          value={draft.expiryPreset}
          onChange={(value) => {
            if (isExpiryPreset(value)) update({ expiryPreset: value });
          }}
        >
          {EXPIRY_PRESETS.map((preset) => (
            <option key={preset} value={preset}>
              {t(PRESET_LABELS[preset])}
            </option>
          ))}
        </SelectField>
        {draft.expiryPreset === 'custom' &&
          numberField(
            'customMinutes',
            t('optionsCustomMinutes'),
            t('optionsCustomMinutesHint', String(MAX_CUSTOM_EXPIRY_MINUTES)),
            MAX_CUSTOM_EXPIRY_MINUTES,
            expiryLocked,
          )}

        <CheckField
          label={t('optionsAutoDomainAllow')}
          hint={t('optionsAutoDomainAllowHint')}
          locked={locked('autoDomainAllow')}
          checked={draft.autoDomainAllow}
          onChange={(checked) => {
            update({ autoDomainAllow: checked });
          }}
        />

        <SelectField
          label={t('optionsUnwrap')}
          hint={t('optionsUnwrapHint')}
          locked={locked('unwrap')}
          value={draft.unwrap}
          onChange={(value) => {
            if (isUnwrapMode(value)) update({ unwrap: value });
          }}
        >
          {UNWRAP_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {t(UNWRAP_LABELS[mode])}
            </option>
          ))}
        </SelectField>
        <p class="muted mail-link">
          {t('optionsMailIntro')}{' '}
          <a href={browser.runtime.getURL('/mail.html')} target="_blank" rel="noopener">
            {t('optionsMailLink')}
          </a>
        </p>

        <SelectField
          label={t('optionsTabPlacement')}
          locked={locked('tabPlacement')}
          value={draft.tabPlacement}
          onChange={(value) => {
            update({ tabPlacement: value === 'background' ? 'background' : 'foreground' });
          }}
        >
          <option value="foreground">{t('optionsTabForeground')}</option>
          <option value="background">{t('optionsTabBackground')}</option>
        </SelectField>

        {numberField('bulkConfirmThreshold', t('optionsBulkThreshold'), t('optionsBulkThresholdHint'), MAX_BULK_THRESHOLD, locked('bulkConfirmThreshold'))}

        <ResearchFields words={RESEARCH_WORDS} heading draft={draft} errors={errors} locked={locked('research')} onChange={update} />

        <div class="row actions">
          <Button type="submit" class="primary" busy={task.busy.value}>
            {t('optionsSessionSave')}
          </Button>
        </div>
        <NoticeLine notice={task.notice.value} />
      </form>
    </Section>
  );
}
