/**
 * Figure 4: how soon the popup and the options page are ready, against a blank page and the
 * floor extension's page.
 */
import type { Page } from 'playwright-core';
import { withTimeout, type BenchBrowser } from './browser';
import { FLOOR_PAGE } from './floor-extension';
import { judge, row, type Row } from './report';
import { medianRatio, summary, withInterval, type MedianRatio } from './stats';

// ---- Figure 4 -----------------------------------------------------------------------

/**
 * Runs in each new document before its scripts: notes when `[data-ready="true"]` first
 * appears, and resolves `__benchReady` with that time. The bench awaits that promise with
 * one evaluate: a locator's wait would query the page and check visibility on every
 * animation frame, forcing style and layout in the page it times (the blank page, which
 * is not waited for, paid none of it).
 */
const READY_OBSERVER = `(() => {
  let resolveReady;
  globalThis.__benchReady = new Promise((resolve) => { resolveReady = resolve; });
  const mark = () => {
    if (globalThis.__benchReadyAt === undefined && document.querySelector('[data-ready="true"]')) {
      globalThis.__benchReadyAt = performance.now();
      observer.disconnect();
      resolveReady(globalThis.__benchReadyAt);
    }
  };
  const observer = new MutationObserver(mark);
  observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-ready'] });
})();`;

export interface PagesResult {
  readonly samples: number;
  /** Navigation start -> load event end of chrome-extension://<id>/manifest.json. */
  readonly blankMs: ReturnType<typeof summary>;
  /** Navigation start -> `[data-ready="true"]` appears. */
  readonly popupMs: ReturnType<typeof summary>;
  readonly optionsMs: ReturnType<typeof summary>;
  /** The floor extension's page (see floor-extension.ts), in the same rounds. */
  readonly floorMs: ReturnType<typeof summary>;
  readonly popupLoadMs: ReturnType<typeof summary>;
  readonly optionsLoadMs: ReturnType<typeof summary>;
  /** Medians of the per-round ratios (each round loads the four pages once), with intervals. */
  readonly ratios: {
    readonly popupToBlank: MedianRatio;
    readonly optionsToBlank: MedianRatio;
    readonly floorToBlank: MedianRatio;
    readonly popupToFloor: MedianRatio;
    readonly optionsToFloor: MedianRatio;
  };
}

async function loadEnd(page: Page): Promise<number> {
  return page.evaluate(`(() => { const n = performance.getEntriesByType('navigation')[0]; return n ? n.loadEventEnd : NaN; })()`);
}

export async function pagesBench(b: BenchBrowser, samples: number, warmup: number): Promise<PagesResult> {
  const floorBase = b.floor?.base;
  if (floorBase === undefined) throw new Error('the browser was launched without the floor extension');
  const page = await b.context.newPage();
  await page.addInitScript(READY_OBSERVER);
  const blank = async (): Promise<{ ready: number; load: number }> => {
    await page.goto(`${b.base}/manifest.json`, { waitUntil: 'load' });
    const load = await loadEnd(page);
    return { ready: load, load };
  };
  const app = (base: string, path: string) => async (): Promise<{ ready: number; load: number }> => {
    await page.goto(`${base}/${path}`, { waitUntil: 'load' });
    const ready = await withTimeout(page.evaluate<number>('globalThis.__benchReady'), 15_000, `${path} ready`);
    return { ready, load: await loadEnd(page) };
  };
  const kinds = { blank, popup: app(b.base, 'popup.html'), options: app(b.base, 'options.html'), floor: app(floorBase, FLOOR_PAGE) };
  type Kind = keyof typeof kinds;
  const order: readonly Kind[] = ['blank', 'popup', 'options', 'floor'];
  const out: Record<Kind, { ready: number[]; load: number[] }> = {
    blank: { ready: [], load: [] },
    popup: { ready: [], load: [] },
    options: { ready: [], load: [] },
    floor: { ready: [], load: [] },
  };
  for (let i = 0; i < warmup; i++) for (const k of order) await kinds[k]();
  for (let i = 0; i < samples; i++) {
    // Rotate the order each round.
    for (let j = 0; j < order.length; j++) {
      const k = order[(i + j) % order.length] ?? 'blank';
      const r = await kinds[k]();
      if (!Number.isFinite(r.ready)) throw new Error(`${k}: no ready time`);
      out[k].ready.push(r.ready);
      out[k].load.push(r.load);
    }
  }
  await page.close();
  const perRound = (k: Kind, against: Kind): MedianRatio => medianRatio(out[k].ready.map((ready, i) => ready / (out[against].ready[i] ?? Number.NaN)));
  return {
    samples,
    blankMs: summary(out.blank.ready),
    popupMs: summary(out.popup.ready),
    optionsMs: summary(out.options.ready),
    floorMs: summary(out.floor.ready),
    popupLoadMs: summary(out.popup.load),
    optionsLoadMs: summary(out.options.load),
    ratios: {
      popupToBlank: perRound('popup', 'blank'),
      optionsToBlank: perRound('options', 'blank'),
      floorToBlank: perRound('floor', 'blank'),
      popupToFloor: perRound('popup', 'floor'),
      optionsToFloor: perRound('options', 'floor'),
    },
  };
}

/**
 * Figure 4's rows: each Isolink page against the floor page of the same rounds, judged (the
 * median of the per-round ratios, with its interval, as figure 3 judges the cold click),
 * and the three pages against a blank extension page, for information.
 */
export function pagesRows(r: PagesResult, budgets: { readonly popupFloorRatio: number; readonly optionsFloorRatio: number }): Row[] {
  const { popupToBlank, optionsToBlank, floorToBlank, popupToFloor, optionsToFloor } = r.ratios;
  const judged = (
    [
      ['pages.popup', 'popup', popupToFloor, r.popupMs.median, budgets.popupFloorRatio],
      ['pages.options', 'options', optionsToFloor, r.optionsMs.median, budgets.optionsFloorRatio],
    ] as const
  ).map(([id, name, { ratio, interval }, ms, budget]) =>
    row(
      id,
      `4 ${name} ready / floor page (median of ${r.samples} round ratios)`,
      `${withInterval(ratio, interval)} (${name} ${ms} ms, floor page ${r.floorMs.median} ms)`,
      `<= ${budget}`,
      judge(ratio, (v) => v <= budget),
      { numeric: ratio },
    ),
  );
  return [
    ...judged,
    row(
      'pages.blank',
      '4 pages ready / blank extension page (the same rounds)',
      `popup ${withInterval(popupToBlank.ratio, popupToBlank.interval)}, options ${withInterval(optionsToBlank.ratio, optionsToBlank.interval)}, floor ${withInterval(floorToBlank.ratio, floorToBlank.interval)} (blank ${r.blankMs.median} ms; the floor page: a script, a style sheet, the same two questions to its worker)`,
      '-',
      'info',
      { numeric: optionsToBlank.ratio },
    ),
  ];
}
