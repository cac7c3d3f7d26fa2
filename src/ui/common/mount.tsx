/** Starts a page: the shared theme, the page's title in the user's language, the page in #app. */
import { render, type ComponentChild } from 'preact';
import { t, type MessageKey } from '../../i18n';
import './theme.css';

export function mountPage(page: ComponentChild, title: MessageKey): void {
  document.title = t(title);
  const root = document.getElementById('app');
  if (root !== null) render(page, root);
}
