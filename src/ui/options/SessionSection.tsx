/** Session defaults (uses, expiry, own domain, tabs, bulk threshold) and research defaults. */
import { useState } from 'preact/hooks';
import { t } from '../../i18n';
import type { MessageKey } from '../../i18n';
import { EXPIRY_PRESETS, MAX_CUSTOM_EXPIRY_MINUTES, MAX_BULK_THRESHOLD, settingShapes, type ExpiryPreset } from '../../settings/schema';
import { errorText } from './errors';
import { Field, LockedNote, NoticeLine, Section, fieldDescription, useFieldIds, type Notice } from './fields';
import { ResearchFields } from './ResearchFields';
import {
  MAX_USES_LIMIT,
  SESSION_KEYS,
  isExpiryPreset,
  sameValue,
  sessionDraftOf,
  sessionValuesOf,
  type SessionDraft,
  type SessionField,
  type SessionKey,
} from './session-draft';
import { isLocked, type SectionProps } from './state';

const PRESET_LABELS: { readonly [P in ExpiryPreset]: MessageKey } = {
  none: 'optionsExpiryNone',
  '1h': 'optionsExpiry1h',
  '8h': 'optionsExpiry8h',
  '24h': 'optionsExpiry24h',
  '7d': 'optionsExpiry7d',
  custom: 'optionsExpiryCustom',
};

export function SessionSection({ state, view }: SectionProps) {
  const [draft, setDraft] = useState<SessionDraft>(() => sessionDraftOf(view.settings));
  const [errors, setErrors] = useState<Partial<Record<SessionField, string>>>({});
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { maxUses: useFieldIds(), preset: useFieldIds(), minutes: useFieldIds(), placement: useFieldIds(), threshold: useFieldIds() };
  const lockedIds = { autoDomainAllow: useFieldIds() };
  const locked = (key: SessionKey) => isLocked(view, key);
  const update = (change: Partial<SessionDraft>) => {
    setDraft((current) => ({ ...current, ...change }));
  };

  function save(event: Event): void {
    event.preventDefault();
    if (busy) return;
    const current = view.settings;
    const { values, errors: found } = sessionValuesOf(draft, current);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setNotice({ kind: 'error', text: t('optionsFixFields') });
      return;
    }
    const patch: Partial<Record<SessionKey, unknown>> = {};
    for (const key of SESSION_KEYS) {
      if (locked(key) || sameValue(values[key], current[key])) continue;
      const parsed = settingShapes[key].safeParse(values[key]);
      if (!parsed.success) {
        setNotice({ kind: 'error', text: t('optionsSettingInvalid', [key, parsed.error.issues[0]?.message ?? '']) });
        return;
      }
      patch[key] = values[key];
    }
    if (Object.keys(patch).length === 0) {
      setNotice({ kind: 'info', text: t('optionsNothingChanged') });
      return;
    }
    setBusy(true);
    void (async () => {
      try {
        const next = await state.connector('saveSettings', { patch });
        state.setView(next);
        setDraft(sessionDraftOf(next.settings));
        setNotice({ kind: 'ok', text: t('optionsSessionSaved') });
      } catch (error) {
        setNotice({ kind: 'error', text: errorText(error) });
      } finally {
        setBusy(false);
      }
    })();
  }

  const numberField = (field: 'maxUses' | 'bulkConfirmThreshold', fieldIds: ReturnType<typeof useFieldIds>, label: string, hint: string, max: number) => {
    const keyLocked = locked(field);
    const error = errors[field];
    return (
      <Field ids={fieldIds} label={label} locked={keyLocked} hint={hint} error={error}>
        <input
          id={fieldIds.input}
          type="number"
          inputMode="numeric"
          min={1}
          max={max}
          step={1}
          value={draft[field]}
          disabled={keyLocked}
          aria-invalid={error !== undefined}
          aria-describedby={fieldDescription(fieldIds, { hint, error, locked: keyLocked })}
          onInput={(event) => {
            update({ [field]: event.currentTarget.value });
          }}
        />
      </Field>
    );
  };

  const expiryLocked = locked('expiry');
  const autoLocked = locked('autoDomainAllow');
  const placementLocked = locked('tabPlacement');

  return (
    <Section id="session" title={t('optionsSessionTitle')}>
      <form onSubmit={save} noValidate>
        {numberField('maxUses', ids.maxUses, t('optionsMaxUses'), t('optionsMaxUsesHint'), MAX_USES_LIMIT)}

        <Field ids={ids.preset} label={t('optionsExpiry')} locked={expiryLocked}>
          <select
            id={ids.preset.input}
            value={draft.expiryPreset}
            disabled={expiryLocked}
            aria-describedby={fieldDescription(ids.preset, { locked: expiryLocked })}
            onChange={(event) => {
              const value = event.currentTarget.value;
              if (isExpiryPreset(value)) update({ expiryPreset: value });
            }}
          >
            {EXPIRY_PRESETS.map((preset) => (
              <option key={preset} value={preset}>
                {t(PRESET_LABELS[preset])}
              </option>
            ))}
          </select>
        </Field>
        {draft.expiryPreset === 'custom' && (
          <Field ids={ids.minutes} label={t('optionsCustomMinutes')} locked={expiryLocked} hint={t('optionsCustomMinutesHint', String(MAX_CUSTOM_EXPIRY_MINUTES))} error={errors.customMinutes}>
            <input
              id={ids.minutes.input}
              type="number"
              inputMode="numeric"
              min={1}
              max={MAX_CUSTOM_EXPIRY_MINUTES}
              step={1}
              value={draft.customMinutes}
              disabled={expiryLocked}
              aria-invalid={errors.customMinutes !== undefined}
              aria-describedby={fieldDescription(ids.minutes, { hint: '', error: errors.customMinutes, locked: expiryLocked })}
              onInput={(event) => {
                update({ customMinutes: event.currentTarget.value });
              }}
            />
          </Field>
        )}

        <div class="field check">
          <label class="inline">
            <input
              type="checkbox"
              checked={draft.autoDomainAllow}
              disabled={autoLocked}
              aria-describedby={fieldDescription(lockedIds.autoDomainAllow, { hint: '', locked: autoLocked })}
              onChange={(event) => {
                update({ autoDomainAllow: event.currentTarget.checked });
              }}
            />
            {t('optionsAutoDomainAllow')}
          </label>
          {autoLocked && <LockedNote id={lockedIds.autoDomainAllow.locked} />}
          <p id={lockedIds.autoDomainAllow.hint} class="muted hint">
            {t('optionsAutoDomainAllowHint')}
          </p>
        </div>

        <Field ids={ids.placement} label={t('optionsTabPlacement')} locked={placementLocked}>
          <select
            id={ids.placement.input}
            value={draft.tabPlacement}
            disabled={placementLocked}
            aria-describedby={fieldDescription(ids.placement, { locked: placementLocked })}
            onChange={(event) => {
              update({ tabPlacement: event.currentTarget.value === 'background' ? 'background' : 'foreground' });
            }}
          >
            <option value="foreground">{t('optionsTabForeground')}</option>
            <option value="background">{t('optionsTabBackground')}</option>
          </select>
        </Field>

        {numberField('bulkConfirmThreshold', ids.threshold, t('optionsBulkThreshold'), t('optionsBulkThresholdHint'), MAX_BULK_THRESHOLD)}

        <ResearchFields draft={draft} errors={errors} locked={locked('research')} update={update} />

        <div class="row actions">
          <button type="submit" class="primary" disabled={busy}>
            {t('optionsSessionSave')}
          </button>
        </div>
        <NoticeLine notice={notice} />
      </form>
    </Section>
  );
}
