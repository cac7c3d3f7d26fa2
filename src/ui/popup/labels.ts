/**
 * Display names of the fixed choices (operating systems, browsers, toggle values).
 */
import { t, type MessageKey } from '../../i18n';
import type { BrowserName, BrowserOs, ToggleChoice } from './isolate-state';

const OS_LABELS: Readonly<Record<BrowserOs, MessageKey>> = {
  win: 'popupOsWin',
  mac: 'popupOsMac',
  linux: 'popupOsLinux',
  android: 'popupOsAndroid',
  ios: 'popupOsIos',
};

const BROWSER_LABELS: Readonly<Record<BrowserName, MessageKey>> = {
  chrome: 'popupBrowserChrome',
  firefox: 'popupBrowserFirefox',
  edge: 'popupBrowserEdge',
  safari: 'popupBrowserSafari',
  tor: 'popupBrowserTor',
};

const TOGGLE_LABELS: Readonly<Record<ToggleChoice, MessageKey>> = {
  default: 'popupToggleDefault',
  block_all: 'popupToggleBlock',
  allow_all: 'popupToggleAllow',
};

export const osLabel = (os: BrowserOs): string => t(OS_LABELS[os]);
export const browserLabel = (name: BrowserName): string => t(BROWSER_LABELS[name]);
export const toggleLabel = (choice: ToggleChoice): string => t(TOGGLE_LABELS[choice]);
