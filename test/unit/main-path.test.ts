/**
 * The main path, measured: a menu click on a link, followed to the request and to the
 * tab. Each check runs once per URL (the link's, the launch URL's), and the files the
 * path crosses (every src/ file on the stack when the request leaves and when the tab
 * opens) are a handful a newcomer can read in order.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Deps } from '../../src/background/deps';
import { MENU_IDS, onMenuClick } from '../../src/background/entries';
import { useSimulator } from '../simulator/helpers';
import { apiRequests, createFakes, SOURCE_TAB, type Fakes } from '../support/background-fakes';

const { calls, calledFromSource } = vi.hoisted(() => ({
  calls: { targetChecks: [] as string[], launchChecks: [] as string[] },
  /** Whether the function that called the mocked check is in src/ (its frame is the third line of the stack). */
  calledFromSource: (): boolean => /\/src\//.test((new Error().stack ?? '').split('\n')[3] ?? ''),
}));

vi.mock('../../src/net/url', async (original) => {
  const real = await original<typeof import('../../src/net/url')>();
  return {
    ...real,
    checkTargetUrl: (text: string) => {
      // Isolink's own checks: the simulator checks what it receives too, as the service would.
      if (calledFromSource()) calls.targetChecks.push(text);
      return real.checkTargetUrl(text);
    },
  };
});

vi.mock('../../src/service/launch', async (original) => {
  const real = await original<typeof import('../../src/service/launch')>();
  return {
    ...real,
    checkLaunchUrl: (base: string, candidate: string) => {
      if (calledFromSource()) calls.launchChecks.push(candidate);
      return real.checkLaunchUrl(base, candidate);
    },
  };
});

const h = useSimulator();

/**
 * Most files the path may cross: the listener (index.ts, which these tests do not enter:
 * they call onMenuClick as it does), the entry, the in-flight join, the action, the
 * client and its transport. What the path calls and returns from (the connection, the
 * resolver, the checks, storage) is below it, not on it.
 */
const MAX_PATH_FILES = 6;

/** The src/ files on the current (async) stack, innermost first. */
function sourceFilesOnStack(): string[] {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 100;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  const files = stack
    .split('\n')
    .map((line) => /\/(src\/[^:)?]+\.tsx?)/.exec(line)?.[1])
    .filter((file): file is string => file !== undefined);
  return [...new Set(files)];
}

/** Fakes whose tab and fetch record the stack: where the path is when the tab opens and when the request leaves. */
function tracedFakes(): Fakes & { readonly stacks: { request: string[]; tab: string[] } } {
  const fakes = createFakes(h.sim);
  const stacks = { request: [] as string[], tab: [] as string[] };
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    stacks.request = sourceFilesOnStack();
    return realFetch(input, init);
  });
  const side = fakes.deps.browser;
  const deps: Deps = {
    ...fakes.deps,
    browser: {
      ...side,
      openTab: (url, options) => {
        stacks.tab = sourceFilesOnStack();
        return side.openTab(url, options);
      },
    },
  };
  return { ...fakes, deps, stacks };
}

afterEach(() => {
  calls.targetChecks.length = 0;
  calls.launchChecks.length = 0;
});

describe('a menu click on a link, to the request and the tab', () => {
  it('checks the link once and the launch URL once, sends one request and opens one tab', async () => {
    // Arrange
    const { deps, state } = tracedFakes();
    const link = 'https://evil.example/invoice?id=7';

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: link }, { ...SOURCE_TAB });

    // Assert
    expect(state.notices).toEqual([]);
    expect(calls.targetChecks).toEqual([link]);
    expect(calls.launchChecks).toHaveLength(1);
    expect(apiRequests(h.sim)).toHaveLength(1);
    expect(state.tabs.map((tab) => tab.url)).toEqual(calls.launchChecks);
  });

  it('checks a wrapped link and its real target once each', async () => {
    // Arrange
    const { deps, state } = tracedFakes();
    const target = 'https://evil.example/login';
    const safeLink = `https://eur01.safelinks.protection.outlook.com/?url=${encodeURIComponent(target)}&data=x`;

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: safeLink }, { ...SOURCE_TAB });

    // Assert
    expect(state.notices).toEqual([]);
    expect(calls.targetChecks).toEqual([safeLink, target]);
    expect(calls.launchChecks).toHaveLength(1);
    expect(state.tabs).toHaveLength(1);
  });

  it(`crosses at most ${MAX_PATH_FILES} files, the listener included`, async () => {
    // Arrange
    const { deps, state, stacks } = tracedFakes();

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: 'https://evil.example/path' }, { ...SOURCE_TAB });

    // Assert: the stacks were seen (a stack without frames would pass any bound).
    expect(state.tabs).toHaveLength(1);
    expect(stacks.request).toContain('src/background/entries.ts');
    expect(stacks.tab).toContain('src/background/actions.ts');
    const crossed = [...new Set(['src/background/index.ts', ...stacks.request, ...stacks.tab])].sort();
    expect(crossed.length, crossed.join(', ')).toBeLessThanOrEqual(MAX_PATH_FILES);
  });
});
