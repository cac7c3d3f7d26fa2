/**
 * Research session choices as both pages edit them: the egress location, the browser
 * profile and the egress categories (./ResearchFields shows them).
 */
import type { BROWSER_NAMES, BROWSER_OS } from '../../service/values';
import type { Settings } from '../../messaging/protocol';

export type BrowserOs = (typeof BROWSER_OS)[number];
export type BrowserName = (typeof BROWSER_NAMES)[number];
export type ResearchSettings = Settings['research'];

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
