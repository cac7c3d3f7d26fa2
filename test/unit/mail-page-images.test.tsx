// @vitest-environment happy-dom
/**
 * The reported mail page with images: an image chosen (its codes, the links among them as
 * rows, the others shown as text), an image refused before decoding, and a scan from the
 * menu or the shortcut (one code isolated at once and the page closed; anything else shown
 * in front, nothing opened). The decoder is a fake here; the real one runs in test/e2e.
 */
import { screen } from '@testing-library/preact';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RemoteError } from '../../src/messaging/page';
import { linksInImage, linksInMail, type DecodedCode, type ImageDecoder } from '../../src/readers';
import type { MailDeps, MailFile } from '../../src/ui/mail/deps';
import { choose, createEach, renderPage, useMailPage } from '../support/mail-page';

useMailPage();

/** A real PNG of the corpus: the page tells an image by its first bytes. */
const PNG = readFileSync(resolve(import.meta.dirname, '../fixtures/qr/content-https.png'));

function image(name = 'scan.png', bytes: Uint8Array = PNG): MailFile {
  return { name, size: bytes.length, arrayBuffer: () => Promise.resolve(new Uint8Array(bytes).buffer) };
}

const code = (text: string): DecodedCode => ({ text, format: 'QRCode', box: null });

/** The real readers, with a decoder that finds these texts in any image. */
function readerFinding(texts: readonly string[]): { readonly loadReader: MailDeps['loadReader']; readonly decoded: () => number } {
  let decoded = 0;
  const decoder: ImageDecoder = () => {
    decoded++;
    return Promise.resolve(texts.map(code));
  };
  return { loadReader: () => Promise.resolve({ linksInMail, linksInImage, decoder }), decoded: () => decoded };
}

const CAPTURED = (): Promise<MailFile> => Promise.resolve(image('the visible tab'));

describe('mail page: an image chosen', () => {
  it("lists its codes' links as rows and shows the codes that are not links as text", async () => {
    const { loadReader } = readerFinding(['hxxps://evil[.]example/login', 'WIFI:T:WPA;S:CorpGuest;P:secret;;', 'javascript:alert(1)']);
    await renderPage({ loadReader });
    await choose(image());

    expect(await screen.findByRole('heading', { name: 'The codes in scan.png' })).toBeTruthy();
    expect(screen.getByText(/An image of 246 × 246 pixels: 3 codes found/)).toBeTruthy();
    expect(screen.getByText('Wi-Fi network')).toBeTruthy();
    expect(screen.getByText('WIFI:T:WPA;S:CorpGuest;P:secret;;')).toBeTruthy();
    // The defanged link is a row that can be opened; javascript: is a refused row.
    expect(screen.getAllByRole('checkbox')).toHaveLength(1);
    expect(screen.getByRole('checkbox', { name: /evil\.example/ })).toBeTruthy();
    expect(screen.getByText(/javascript: scheme/)).toBeTruthy();
    expect(screen.getAllByText(/a QR code in scan\.png/).length).toBeGreaterThan(0);
  });

  it('loads the reader, and so makes the decoder, once for every file the page reads', async () => {
    const { loadReader } = readerFinding(['https://evil.example/a']);
    let loads = 0;
    await renderPage({
      loadReader: () => {
        loads++;
        return loadReader();
      },
    });
    await choose(image('one.png'));
    await screen.findByRole('heading', { name: 'The codes in one.png' });
    await choose(image('two.png'));
    await screen.findByRole('heading', { name: 'The codes in two.png' });
    expect(loads).toBe(1);
  });

  it('says so when an image holds no code', async () => {
    await renderPage(readerFinding([]));
    await choose(image());
    expect(await screen.findByText(/No QR code .* was found in this image/)).toBeTruthy();
    expect(screen.queryAllByRole('checkbox')).toEqual([]);
  });

  it('refuses an image that declares too many pixels, before any decoding', async () => {
    const reader = readerFinding(['https://never.example/']);
    const bomb = new Uint8Array(PNG);
    // IHDR: width and height, 10,000 each.
    new DataView(bomb.buffer).setUint32(16, 10_000);
    new DataView(bomb.buffer).setUint32(20, 10_000);
    await renderPage(reader);
    await choose(image('bomb.png', bomb));
    expect(await screen.findByText(/bomb\.png is 10000 × 10000 pixels, beyond the 40 megapixels/)).toBeTruthy();
    expect(reader.decoded()).toBe(0);
  });
});

describe('mail page: a scan from the menu or the shortcut', () => {
  const SCAN = '?scan=7.1';

  it('isolates its one code at once and closes the page', async () => {
    const page = await renderPage({
      ...readerFinding(['https://evil.example/login']),
      capture: CAPTURED,
      search: SCAN,
      handlers: { bulkCreate: createEach, openContexts: () => ({ opened: 1 }) },
    });
    await expect.poll(() => page.tab).toEqual(['close']);
    expect(page.sent('bulkCreate')).toEqual([{ urls: ['https://evil.example/login'], wrapped: 'unwrap' }]);
    expect(page.actions()).toEqual(['bulkCreate', 'openContexts']);
  });

  it('shows several codes in front and opens nothing until chosen', async () => {
    const page = await renderPage({ ...readerFinding(['https://a.evil.example/', 'https://b.evil.example/']), capture: CAPTURED, search: SCAN });
    await expect.poll(() => page.tab).toEqual(['show']);
    expect(await screen.findByRole('heading', { name: 'The codes in the visible tab' })).toBeTruthy();
    expect(screen.getAllByRole('checkbox')).toHaveLength(2);
    expect(page.actions()).toEqual([]);
  });

  it('shows a single code that is not a link, and a refused one, without sending anything', async () => {
    for (const text of ['tel:+15555550100', 'javascript:alert(1)']) {
      const page = await renderPage({ ...readerFinding([text]), capture: CAPTURED, search: SCAN });
      await expect.poll(() => page.tab).toEqual(['show']);
      expect(page.actions()).toEqual([]);
      page.unmount();
    }
  });

  it('stays in front with the reason when the one code cannot be isolated', async () => {
    const refuse = () => Promise.reject(new RemoteError({ name: 'ServiceError', message: 'The service refused the request (HTTP 503).' }));
    const page = await renderPage({ ...readerFinding(['https://evil.example/login']), capture: CAPTURED, search: SCAN, handlers: { bulkCreate: refuse } });
    await expect.poll(() => page.tab).toEqual(['show']);
    expect(await screen.findByText(/HTTP 503/)).toBeTruthy();
  });

  it('says what to do when the browser gives no pixels, in front', async () => {
    const page = await renderPage({ ...readerFinding(['https://evil.example/']), capture: () => Promise.reject(new Error('no grant')), search: SCAN });
    await expect.poll(() => page.tab).toEqual(['show']);
    expect(await screen.findByText(/could not read what the tab shows/)).toBeTruthy();
    expect(page.actions()).toEqual([]);
  });

  it('runs no scan for a query that is not one', async () => {
    let captured = 0;
    const page = await renderPage({ capture: () => (captured++, CAPTURED()), search: '?scan=7' });
    await Promise.resolve();
    expect(captured).toBe(0);
    expect(page.tab).toEqual([]);
  });
});
