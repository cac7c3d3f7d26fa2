/**
 * The live preview of the quick isolation field: what the typed (possibly defanged)
 * text becomes once refanged, and whether it can be isolated.
 */
import { refang } from '../../fang';
import { MAX_URL_LENGTH, checkTargetUrl } from '../../net/url';
import { t } from '../../i18n';

export type UrlPreview =
  | { readonly kind: 'empty' }
  | { readonly kind: 'ok'; readonly href: string; readonly host: string }
  | { readonly kind: 'refused'; readonly message: string };

/** Why checkTargetUrl refused `text`, in the popup's words. */
function refusal(text: string): string {
  if (text.length > MAX_URL_LENGTH) return t('popupUrlTooLong', String(MAX_URL_LENGTH));
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return t('popupUrlNotAbsolute');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return t('popupUrlScheme', url.protocol.slice(0, 20));
  return t('popupUrlNoHost');
}

/**
 * Refangs `input` and checks it as a target. The host is `URL.hostname`, which the
 * WHATWG parser already gives in punycode, so look-alike characters show up.
 */
export function previewUrl(input: string): UrlPreview {
  const text = input.trim();
  if (text === '') return { kind: 'empty' };
  const refanged = refang(text);
  const check = checkTargetUrl(refanged);
  if (!check.ok) return { kind: 'refused', message: refusal(refanged) };
  return { kind: 'ok', href: check.url.href, host: check.url.hostname };
}
