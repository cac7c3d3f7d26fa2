/**
 * Research session choices as both pages edit them: the egress location, the browser
 * profile and the egress categories, with the names of the fixed choices.
 */
import { BROWSER_NAMES, BROWSER_OS } from '../../api/values';
import { t, type MessageKey } from '../../i18n';
import type { Settings } from '../../messaging/protocol';

export type BrowserOs = (typeof BROWSER_OS)[number];
export type BrowserName = (typeof BROWSER_NAMES)[number];
export type ResearchSettings = Settings['research'];

/** Category values offered as checkboxes; other values already chosen are kept as they are. */
export const CATEGORY_VALUES = {
  availability: ['public'],
  connectivity: ['datacenter', 'isp'],
} as const satisfies Record<'availability' | 'connectivity', readonly string[]>;

export type CategoryKey = keyof typeof CATEGORY_VALUES;

export interface ResearchDraft {
  readonly egressRegion: string;
  /** Off: no profile is sent, and the profile below is kept for when it is switched on again. */
  readonly useProfile: boolean;
  readonly os: BrowserOs;
  readonly browser: BrowserName;
  readonly timezone: string;
  readonly languages: string;
  readonly availability: readonly string[];
  readonly connectivity: readonly string[];
}

export function researchDraftOf(research: ResearchSettings): ResearchDraft {
  const profile = research.browserProfile;
  return {
    egressRegion: research.egressRegion,
    useProfile: profile !== null,
    os: profile?.os ?? 'win',
    browser: profile?.browser ?? 'chrome',
    timezone: profile?.timezone ?? '',
    languages: profile?.languages ?? '',
    availability: research.availability,
    connectivity: research.connectivity,
  };
}

/** The research choice the draft stands for (time zone and languages trimmed, not checked). */
export function researchOf(draft: ResearchDraft): ResearchSettings {
  return {
    egressRegion: draft.egressRegion,
    browserProfile: draft.useProfile ? { os: draft.os, browser: draft.browser, timezone: draft.timezone.trim(), languages: draft.languages.trim() } : null,
    availability: [...draft.availability],
    connectivity: [...draft.connectivity],
  };
}

/** `list` with `value` added at the end (on) or taken out (off). */
export function toggled(list: readonly string[], value: string, on: boolean): string[] {
  const without = list.filter((entry) => entry !== value);
  return on ? [...without, value] : without;
}

export function isOs(value: string): value is BrowserOs {
  return (BROWSER_OS as readonly string[]).includes(value);
}

export function isBrowserName(value: string): value is BrowserName {
  return (BROWSER_NAMES as readonly string[]).includes(value);
}

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

export const osLabel = (os: BrowserOs): string => t(OS_LABELS[os]);
export const browserLabel = (name: BrowserName): string => t(BROWSER_LABELS[name]);
