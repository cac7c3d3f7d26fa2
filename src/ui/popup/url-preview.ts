/**
 * The live preview of the quick isolation field: what the typed (possibly defanged,
 * possibly wrapped) text resolves to, through the same resolver the background uses, so
 * what is shown is what is isolated. Part of the popup's own script, with the text
 * scanner and the unwrapping tables it needs (about 9 kB gzip): as a chunk loaded after
 * the first render it kept the popup from being ready for 12-20 ms more (bench/README,
 * "Issue 14").
 */
import { t } from '../../i18n';
import { MAX_URL_LENGTH } from '../../net/url';
import { resolveText, type Refusal, type UnwrapMode } from '../../resolve';
import { WRAPPER_NAMES, wrapperNamesOf } from '../../fang/ids';

export type UrlPreview =
  | { readonly kind: 'empty' }
  | {
      readonly kind: 'ok';
      readonly href: string;
      readonly host: string;
      /** "Microsoft Safe Links, Proofpoint URL Defense": the wrappers peeled; '' when none. */
      readonly unwrappedFrom: string;
      /** The wrapper isolated as it is (it cannot be read, or the settings keep it), by name. */
      readonly wrapper?: { readonly name: string; readonly opaque: boolean };
      /** The settings ask: the link as written, the other choice. */
      readonly choice?: { readonly href: string; readonly host: string };
    }
  | { readonly kind: 'refused'; readonly message: string };

/** Why the resolver refused the text, in the popup's words. */
function refusal(problem: Refusal): string {
  switch (problem.code) {
    case 'urlTooLong':
      return t('popupUrlTooLong', String(MAX_URL_LENGTH));
    case 'urlNotAbsolute':
      return t('popupUrlNotAbsolute');
    case 'urlScheme':
      return t('popupUrlScheme', problem.params[0] ?? '');
    case 'urlNoHost':
      return t('popupUrlNoHost');
  }
}

/**
 * The target of `input` under the unwrap setting. The host is `URL.hostname`, which the
 * WHATWG parser already gives in punycode, so look-alike characters show up.
 */
export function previewUrl(input: string, mode: UnwrapMode): UrlPreview {
  if (input.trim() === '') return { kind: 'empty' };
  const resolved = resolveText(input, mode);
  if (!resolved.ok) return { kind: 'refused', message: refusal(resolved) };
  const { url, layers, wrapper, opaque, choice } = resolved.target;
  return {
    kind: 'ok',
    href: url.href,
    host: url.hostname,
    unwrappedFrom: wrapperNamesOf(layers),
    ...(wrapper === undefined ? {} : { wrapper: { name: WRAPPER_NAMES[wrapper], opaque: opaque === true } }),
    ...(choice === undefined ? {} : { choice: { href: choice.url.href, host: choice.url.hostname } }),
  };
}
