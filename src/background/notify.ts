/**
 * Notifications: what happened and what to do next. A notification that offers a next
 * step keeps it in storage.session; clicking it (or its button, where the browser has
 * buttons) carries it out.
 */
import { browser, type Browser } from 'wxt/browser';
import { t } from '../i18n';
import { putPending, type PendingAction } from '../settings/pending';
import type { Failure } from './failures';

interface SecondButton {
  readonly label: string;
  readonly action: PendingAction;
}

export interface Notifier {
  /** A failure, with its next step (open options, or retry `retry`). */
  failure(failure: Failure, retry?: PendingAction): Promise<void>;
  /** Plain information. */
  info(title: string, message: string): Promise<void>;
  /**
   * A question: clicking the notification (or its button) carries out `action`; a second
   * button, where the browser has buttons, carries out its own.
   */
  ask(title: string, message: string, button: string, action: PendingAction, second?: SecondButton): Promise<void>;
}

/** Browsers cap notification text; keep it readable. */
const MAX_MESSAGE = 400;

function clip(text: string): string {
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;
}

let counter = 0;
function newId(): string {
  counter += 1;
  return `isolink-${Date.now().toString(36)}-${counter}`;
}

async function show(title: string, message: string, button: string | undefined, action: PendingAction | undefined, second?: SecondButton): Promise<void> {
  const id = newId();
  // Firefox has no buttons: a click carries out the first action, the second is not offered.
  const withSecond = second && !import.meta.env.FIREFOX ? second : undefined;
  if (action) await putPending(id, action, withSecond?.action);
  const options: Browser.notifications.NotificationCreateOptions = {
    type: 'basic',
    iconUrl: browser.runtime.getURL('/icons/128.png'),
    title: clip(title),
    message: clip(action && import.meta.env.FIREFOX && button ? `${message} ${t('notifyClickTo', button)}` : message),
  };
  // Firefox has no notification buttons: a click on the notification does the same.
  if (!import.meta.env.FIREFOX && button) options.buttons = [{ title: button }, ...(withSecond ? [{ title: withSecond.label }] : [])];
  await browser.notifications.create(id, options);
}

export const browserNotifier: Notifier = {
  failure: (failure, retry) => {
    if (failure.next === 'options') return show(failure.title, failure.message, t('notifyOpenOptions'), { kind: 'openOptions' });
    if (failure.next === 'retry' && retry) return show(failure.title, failure.message, t('notifyRetry'), retry);
    return show(failure.title, failure.message, undefined, undefined);
  },
  info: (title, message) => show(title, message, undefined, undefined),
  ask: (title, message, button, action, second) => show(title, message, button, action, second),
};
