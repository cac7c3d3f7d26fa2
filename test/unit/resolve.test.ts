/**
 * The one target resolver: what the popup previews is what the background isolates, for
 * any input; the examples where they used to differ; the unwrap modes.
 */
import fc from 'fast-check';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { beforeEach, describe, expect, it } from 'vitest';
import { resolveInput } from '../../src/background/actions';
import { RefusedUrlError } from '../../src/background/failures';
import { linkInText, resolveAll, resolveText, UNWRAP_MODES, type UnwrapMode } from '../../src/resolve';
import { previewUrl } from '../../src/ui/popup/url-preview';
import { installMessages } from '../support/i18n';
import { wrap } from '../support/wrap';

beforeEach(() => {
  fakeBrowser.reset();
  installMessages();
});

/** What the background isolates for text typed into the popup (handlers.isolate), or undefined when it refuses. */
function isolated(text: string, mode: UnwrapMode, wrapped: 'unwrap' | 'keep'): string | undefined {
  try {
    return resolveInput(linkInText(text), mode, wrapped).url.href;
  } catch (error) {
    expect(error).toBeInstanceOf(RefusedUrlError);
    return undefined;
  }
}

/** What the popup shows will open, or undefined when it refuses. */
function previewed(text: string, mode: UnwrapMode, wrapped: 'unwrap' | 'keep'): string | undefined {
  const preview = previewUrl(text, mode);
  if (preview.kind !== 'ok') return undefined;
  return wrapped === 'keep' && preview.choice ? preview.choice.href : preview.href;
}

const input = fc.oneof(
  fc.string(),
  fc.webUrl({ withQueryParameters: true, withFragments: true, authoritySettings: { withUserInfo: true, withPort: true } }),
  fc
    .tuple(fc.constantFrom('IOC: ', 'see ', '', '  ', 'hxxps://', '<'), fc.webUrl(), fc.constantFrom('', ' (phishing)', ' @evil.example', '.', ' x'))
    .map((parts) => parts.join('')),
  fc.webUrl().map((url) => url.replace('https://', 'hxxps://').replace('http://', 'hxxp://').replaceAll('.', '[.]')),
  fc
    .tuple(fc.constantFrom(...(Object.keys(wrap) as (keyof typeof wrap)[])), fc.oneof(fc.webUrl(), fc.constant('javascript:alert(1)')))
    .map(([format, url]) => wrap[format](url)),
);

describe('the popup shows what the background isolates', () => {
  it('for any input, every unwrap mode and either answer: the same URL, or both refuse', () => {
    fc.assert(
      fc.property(input, fc.constantFrom(...UNWRAP_MODES), fc.constantFrom('unwrap' as const, 'keep' as const), (text, mode, wrapped) => {
        // The popup sends an answer only where the settings ask; elsewhere the setting decides.
        expect(previewed(text, mode, mode === 'ask' ? wrapped : 'unwrap')).toBe(isolated(text, mode, wrapped));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['IOC: hxxp://evil[.]com/x', 'http://evil.com/x'],
    ['hxxp://evil[.]com/x (phishing)', 'http://evil.com/x'],
    ['https://good.example @evil.example/', 'https://good.example/'],
    ['https://good.example/ x@evil.example', 'https://good.example/'],
  ])('%j: both take %j', (text, expected) => {
    expect(previewed(text, 'unwrap', 'unwrap')).toBe(expected);
    expect(isolated(text, 'unwrap', 'unwrap')).toBe(expected);
  });
});

describe('resolveText and resolveAll', () => {
  const REAL = 'https://real.example/a?b=1';

  it('unwrap: the real target, its layers, no choice', () => {
    const resolved = resolveText(wrap.safelinks(wrap.proofpointV2(REAL)), 'unwrap');
    expect(
      resolved.ok && { url: resolved.target.url.href, layers: resolved.target.layers, wrapper: resolved.target.wrapper, choice: resolved.target.choice },
    ).toEqual({
      url: REAL,
      layers: ['safelinks', 'proofpoint'],
      wrapper: undefined,
      choice: undefined,
    });
  });

  it('keep: the wrapper itself, marked as a wrapper', () => {
    const link = wrap.safelinks(REAL);
    const resolved = resolveText(link, 'keep');
    expect(resolved.ok && [resolved.target.url.href, resolved.target.layers, resolved.target.wrapper]).toEqual([link, [], 'safelinks']);
  });

  it('ask: the real target, and the wrapper as the other choice', () => {
    const link = wrap.safelinks(REAL);
    const resolved = resolveText(link, 'ask');
    expect(resolved.ok && [resolved.target.url.href, resolved.target.choice?.url.href, resolved.target.choice?.wrapper]).toEqual([REAL, link, 'safelinks']);
  });

  it('a wrapped javascript: URL is refused, naming the scheme; kept as the wrapper it is isolated as the wrapper', () => {
    const link = wrap.safelinks('javascript:alert(1)');
    expect(resolveText(link, 'unwrap')).toMatchObject({ ok: false, code: 'urlScheme', params: ['javascript:'], given: 'javascript:alert(1)' });
    expect(resolveText(link, 'keep').ok).toBe(true);
  });

  it('a list: every link resolved, refusals kept beside, two wrappers of one target once', () => {
    const text = `${wrap.safelinks(REAL)} ${wrap.google(REAL)} ${wrap.slack('javascript:alert(1)')} https://other.example/`;
    const { targets, refused } = resolveAll(text, 'unwrap');
    expect(targets.map((target) => target.url.href)).toEqual([REAL, 'https://other.example/']);
    expect(refused.map((refusal) => refusal.code)).toEqual(['urlScheme']);
  });
});
