/**
 * The isolation path's checks, in the types: a tab opens only a LaunchUrl (what
 * checkLaunchUrl returns), and a Target holds only a CheckedUrl (what checkTargetUrl
 * returns). An unchecked URL cannot be passed on; these lines would not compile otherwise.
 */
import { describe, expectTypeOf, it } from 'vitest';

import { checkLaunchUrl, type LaunchUrl } from '../../src/api';
import type { BrowserSide, OpenTabOptions } from '../../src/background/deps';
import { checkTargetUrl, type CheckedUrl } from '../../src/net/url';
import type { Target } from '../../src/resolve';

declare const browser: BrowserSide;
declare const options: OpenTabOptions;

describe('a launch URL', () => {
  it('opens in a tab only once checked against the launch base', () => {
    expectTypeOf<BrowserSide['openTab']>().parameter(0).toEqualTypeOf<LaunchUrl>();
    // @ts-expect-error: a plain string is not a checked launch URL
    void browser.openTab('https://launch.example/launch?ctx=1', options);
    const checked = checkLaunchUrl('https://launch.example', 'https://launch.example/launch?ctx=1');
    expectTypeOf(checked).toEqualTypeOf<LaunchUrl | null>();
    if (checked !== null) void browser.openTab(checked, options);
  });
});

describe('a target', () => {
  it('holds only a URL that passed checkTargetUrl', () => {
    expectTypeOf<Target['url']>().toEqualTypeOf<CheckedUrl>();
    // @ts-expect-error: a URL object is not a checked URL
    const unchecked: Target = { url: new URL('https://evil.example/'), given: 'x', layers: [] };
    expectTypeOf(unchecked).toEqualTypeOf<Target>();
    const result = checkTargetUrl('https://evil.example/');
    if (result.ok) expectTypeOf(result.url).toEqualTypeOf<CheckedUrl>();
  });
});
