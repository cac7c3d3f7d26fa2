/**
 * Isolink's context-menu items. Created at install and browser start-up (removeAll
 * first, so an update never leaves stale items).
 */
import { browser } from 'wxt/browser';
import { extractUrls } from '../fang';
import { t } from '../i18n';
import { MENU_IDS } from './entries';

type Context = 'link' | 'selection' | 'page' | 'image' | 'action';

interface MenuItem {
  readonly id: string;
  readonly title: string;
  readonly contexts: [Context, ...Context[]];
}

/** The items, in the order they appear. */
export function menuItems(): MenuItem[] {
  return [
    { id: MENU_IDS.isolateLink, title: t('menuIsolateLink'), contexts: ['link'] },
    { id: MENU_IDS.isolateLinkResearch, title: t('menuIsolateLinkResearch'), contexts: ['link'] },
    { id: MENU_IDS.copyLinkDefanged, title: t('menuCopyLinkDefanged'), contexts: ['link'] },
    { id: MENU_IDS.copyLinkUnwrapped, title: t('menuCopyLinkUnwrapped'), contexts: ['link'] },
    { id: MENU_IDS.isolateSelection, title: t('menuIsolateSelection'), contexts: ['selection'] },
    { id: MENU_IDS.copySelectionDefanged, title: t('menuCopySelectionDefanged'), contexts: ['selection'] },
    { id: MENU_IDS.copySelectionRefanged, title: t('menuCopySelectionRefanged'), contexts: ['selection'] },
    { id: MENU_IDS.copySelectionUnwrapped, title: t('menuCopySelectionUnwrapped'), contexts: ['selection'] },
    { id: MENU_IDS.isolatePage, title: t('menuIsolatePage'), contexts: ['page'] },
    { id: MENU_IDS.scanImage, title: t('menuScanImage'), contexts: ['image'] },
    { id: MENU_IDS.scanTab, title: t('menuScanTab'), contexts: ['page', 'action'] },
  ];
}

/** The selection item's title once the selection is known: it says how many links it holds. */
export function fangMenuTitle(selection: string): string {
  const count = extractUrls(selection).length;
  if (count === 0) return t('menuIsolateSelectionNone');
  if (count === 1) return t('menuIsolateSelectionOne');
  return t('menuIsolateSelectionCount', String(count));
}

export async function installMenus(): Promise<void> {
  await browser.contextMenus.removeAll();
  for (const item of menuItems()) {
    browser.contextMenus.create({ id: item.id, title: item.title, contexts: item.contexts });
  }
}
