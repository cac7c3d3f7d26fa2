/**
 * The session and research defaults as the form holds them (text for numbers), and
 * back to settings with a reason for each field that does not fit.
 */
import { isAcceptLanguage, isIanaTimeZone } from '../../service/values';
import { t } from '../../i18n';
import type { Settings } from '../../messaging/protocol';
import { EXPIRY_PRESETS, MAX_BULK_THRESHOLD, MAX_CUSTOM_EXPIRY_MINUTES, MAX_USES, type ExpiryPreset } from '../../settings/limits';
import { researchDraftOf, researchOf, type ResearchDraft } from '../common/research';

/** The session defaults, and the research defaults as the common research fields edit them. */
export interface SessionDraft extends ResearchDraft {
  readonly maxUses: string;
  readonly expiryPreset: ExpiryPreset;
  readonly customMinutes: string;
  readonly autoDomainAllow: boolean;
  readonly unwrap: Settings['unwrap'];
  readonly tabPlacement: Settings['tabPlacement'];
  readonly bulkConfirmThreshold: string;
}

export type SessionKey = 'maxUses' | 'expiry' | 'autoDomainAllow' | 'unwrap' | 'tabPlacement' | 'bulkConfirmThreshold' | 'research';
export const SESSION_KEYS: readonly SessionKey[] = ['maxUses', 'expiry', 'autoDomainAllow', 'unwrap', 'tabPlacement', 'bulkConfirmThreshold', 'research'];

/** Fields of the form that can be wrong, each with its reason. */
export type SessionField = 'maxUses' | 'customMinutes' | 'bulkConfirmThreshold' | 'timezone' | 'languages';

export function isExpiryPreset(value: string): value is ExpiryPreset {
  return (EXPIRY_PRESETS as readonly string[]).includes(value);
}

export function sessionDraftOf(settings: Settings): SessionDraft {
  return {
    ...researchDraftOf(settings.research),
    maxUses: settings.maxUses === null ? '' : String(settings.maxUses),
    expiryPreset: settings.expiry.preset,
    customMinutes: String(settings.expiry.customMinutes),
    autoDomainAllow: settings.autoDomainAllow,
    unwrap: settings.unwrap,
    tabPlacement: settings.tabPlacement,
    bulkConfirmThreshold: String(settings.bulkConfirmThreshold),
  };
}

/** A whole number from min to max written in digits only, or null. */
function wholeNumber(text: string, min: number, max: number): number | null {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.length > 9 || ![...trimmed].every((ch) => ch >= '0' && ch <= '9')) return null;
  const value = Number(trimmed);
  return value >= min && value <= max ? value : null;
}

export type SessionValues = Pick<Settings, SessionKey>;

/** The settings the draft stands for, or the reasons its fields do not fit. */
export function sessionValuesOf(
  draft: SessionDraft,
  current: Settings,
): { readonly values: SessionValues; readonly errors: Partial<Record<SessionField, string>> } {
  const errors: Partial<Record<SessionField, string>> = {};

  let maxUses: number | null = null;
  if (draft.maxUses.trim() !== '') {
    maxUses = wholeNumber(draft.maxUses, 1, MAX_USES);
    if (maxUses === null) errors.maxUses = t('optionsMaxUsesInvalid', String(MAX_USES));
  }

  let customMinutes = current.expiry.customMinutes;
  if (draft.expiryPreset === 'custom') {
    const minutes = wholeNumber(draft.customMinutes, 1, MAX_CUSTOM_EXPIRY_MINUTES);
    if (minutes === null) errors.customMinutes = t('optionsCustomMinutesInvalid', String(MAX_CUSTOM_EXPIRY_MINUTES));
    else customMinutes = minutes;
  }

  const threshold = wholeNumber(draft.bulkConfirmThreshold, 1, MAX_BULK_THRESHOLD);
  if (threshold === null) errors.bulkConfirmThreshold = t('optionsBulkThresholdInvalid', String(MAX_BULK_THRESHOLD));

  const timezone = draft.timezone.trim();
  const languages = draft.languages.trim();
  if (draft.useProfile && timezone !== '' && !isIanaTimeZone(timezone)) errors.timezone = t('optionsTimezoneInvalid');
  if (draft.useProfile && languages !== '' && !isAcceptLanguage(languages)) errors.languages = t('optionsLanguagesInvalid');

  return {
    values: {
      maxUses: errors.maxUses === undefined ? maxUses : current.maxUses,
      expiry: { preset: draft.expiryPreset, customMinutes },
      autoDomainAllow: draft.autoDomainAllow,
      unwrap: draft.unwrap,
      tabPlacement: draft.tabPlacement,
      bulkConfirmThreshold: threshold ?? current.bulkConfirmThreshold,
      research: researchOf(draft),
    },
    errors,
  };
}

/** Deep equality of JSON-shaped values (settings), whatever the key order. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && sameValue(left[key], right[key]));
}
