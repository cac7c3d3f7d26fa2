/**
 * Times of recent contexts: relative to now ("5 minutes ago", "in 3 hours") or as a
 * local date, written in the language of the popup's messages.
 */
import { t } from '../../i18n';

const UNITS: readonly (readonly [Intl.RelativeTimeFormatUnit, number])[] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** The language the popup's messages are in, when the runtime knows it. */
function locale(): string | undefined {
  const tag = t('popupLocale');
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

/** `thenMs` relative to `nowMs`. */
export function relativeTime(thenMs: number, nowMs: number): string {
  const format = new Intl.RelativeTimeFormat(locale(), { numeric: 'auto' });
  const delta = thenMs - nowMs;
  for (const [unit, size] of UNITS) {
    if (Math.abs(delta) >= size) return format.format(Math.trunc(delta / size), unit);
  }
  return format.format(Math.trunc(delta / 1000), 'second');
}

/** `thenMs` as a local date and time. */
export function localTime(thenMs: number): string {
  return new Date(thenMs).toLocaleString(locale(), { dateStyle: 'medium', timeStyle: 'short' });
}
