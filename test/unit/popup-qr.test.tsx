// @vitest-environment happy-dom
/**
 * QR codes pasted on the popup (src/ui/popup/QrCodes.tsx, loaded with the first image):
 * each code's link opens like quick isolation (the Isolate tab's `isolate` message, with
 * its session), a code that is not a link or a refused one is shown and offers nothing, and
 * an image refused before decoding says why. The decoder is a fake; the real one runs in
 * test/e2e.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Connector } from '../../src/messaging/page';
import type { DecodedCode, ImageDecoder } from '../../src/readers';
import { createIsolateState } from '../../src/ui/popup/isolate-state';
import { createQrCodes } from '../../src/ui/popup/QrCodes';
import { installMessages } from '../support/i18n';

const PNG = readFileSync(resolve(import.meta.dirname, '../fixtures/qr/content-https.png'));

beforeEach(() => {
  fakeBrowser.reset();
  installMessages();
});
afterEach(() => {
  cleanup();
});

function setUp(texts: readonly string[]) {
  const sent: { type: string; data: unknown }[] = [];
  const connector = ((type: string, data: unknown) => {
    sent.push({ type, data });
    return Promise.resolve({ launchUrl: 'https://launch.isolation.example/ctx/1', context: null });
  }) as unknown as Connector;
  const deps = { connector, copyText: () => Promise.resolve(), openOptions: () => Promise.resolve(), openMail: () => Promise.resolve(), now: () => 0 };
  const isolate = createIsolateState(deps);
  let shownIsolate = 0;
  let decoded = 0;
  const decoder: ImageDecoder = () => {
    decoded++;
    return Promise.resolve(texts.map((text): DecodedCode => ({ text, format: 'QRCode', box: null })));
  };
  const codes = createQrCodes(
    isolate,
    () => {
      shownIsolate++;
    },
    () => decoder,
  );
  render(<codes.View />);
  return { codes, isolate, sent, shown: () => shownIsolate, decoded: () => decoded };
}

const pasted = (bytes: Uint8Array = PNG): Blob => new Blob([new Uint8Array(bytes)], { type: 'image/png' });

describe('QR codes pasted on the popup', () => {
  it('open a link like quick isolation: the Isolate tab, its URL field, one isolate message', async () => {
    const { codes, isolate, sent, shown } = setUp(['hxxps://evil[.]example/login', 'WIFI:T:WPA;S:Guest;P:x;;', 'javascript:alert(1)']);
    await codes.read(pasted());
    expect(await screen.findByText('https://evil.example/login')).toBeTruthy();
    expect(screen.getByText('WIFI:T:WPA;S:Guest;P:x;;')).toBeTruthy();
    expect(screen.getByText(/not a link: not opened/)).toBeTruthy();
    expect(screen.getByText(/javascript: scheme/)).toBeTruthy();
    // One button: the link's.
    const [open, ...others] = screen.getAllByRole('button', { name: 'Open in isolation' });
    expect(others).toEqual([]);
    fireEvent.click(open as HTMLElement);
    await expect.poll(() => sent.filter((message) => message.type === 'isolate')).toHaveLength(1);
    expect(sent.find((message) => message.type === 'isolate')?.data).toMatchObject({ url: 'https://evil.example/login', session: 'standard' });
    expect(isolate.url.value).toBe('https://evil.example/login');
    expect(shown()).toBe(1);
  });

  it('say so when the image holds no code', async () => {
    const { codes } = setUp([]);
    await codes.read(pasted());
    expect(await screen.findByText(/No QR code found in the image/)).toBeTruthy();
  });

  it('refuse an image that declares too many pixels, before any decoding, with what to do', async () => {
    const { codes, decoded, sent } = setUp(['https://never.example/']);
    const bomb = new Uint8Array(PNG);
    new DataView(bomb.buffer).setUint32(16, 20_000);
    new DataView(bomb.buffer).setUint32(20, 20_000);
    await codes.read(pasted(bomb));
    expect(await screen.findByText(/The pasted image is 20000 × 20000 pixels/)).toBeTruthy();
    expect(decoded()).toBe(0);
    expect(sent).toEqual([]);
  });
});
