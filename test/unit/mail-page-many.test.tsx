// @vitest-environment happy-dom
/**
 * The reported mail page with several mails (chosen together, dropped, a dropped folder),
 * against a fake Connector and the real mail reader: the summary (read, not read and why,
 * skipped), one list by target with how many mails hold each and which, each mail's own
 * card on demand, the progress while reading, and one bulkCreate for the targets selected.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { linksInImage, linksInMail, MAIL_LIMITS, type ImageDecoder, type MailReading } from '../../src/readers';
import { caseNote } from '../../src/readers/note';
import { createEach, drag, fileInput, links, openButton, renderPage, settingsView, useMailPage } from '../support/mail-page';

useMailPage();

const MESSAGES = resolve(import.meta.dirname, '../fixtures/mail/mbox/messages');
const QR_PNG = readFileSync(resolve(import.meta.dirname, '../fixtures/qr/content-https.png'));

/** A message of the mbox corpus: 1 and 3 hold the same invoice link, 2 a parcel link. */
function message(number: 1 | 2 | 3, name = `${String(number)}.eml`): File {
  return new File([readFileSync(resolve(MESSAGES, `${String(number)}.eml`))], name, { type: 'message/rfc822' });
}

/** Chooses several files with the file input and waits until they are read. */
async function chooseAll(files: readonly (File | { name: string; size: number; arrayBuffer: () => Promise<ArrayBuffer> })[]): Promise<void> {
  fireEvent.change(fileInput(), { target: { files } });
  await screen.findByRole('heading', { name: 'Several reported mails' });
}

function targetsList(): HTMLElement[] {
  return within(screen.getByRole('list', { name: /^Targets: / })).getAllByRole('listitem');
}

describe('mail page: several mails', () => {
  it('takes several files and a folder: the file input keeps its name, a folder input beside it', async () => {
    await renderPage();
    expect(fileInput().multiple).toBe(true);
    const folder = screen.getByLabelText<HTMLInputElement>('Or a whole folder of them');
    expect(folder.type).toBe('file');
    expect(screen.getByText(/up to 500 mails and 200 MiB at a time/)).toBeTruthy();
  });

  it('lists the mails’ targets once each, most reported first, with how many mails hold each, which, and their dates', async () => {
    await renderPage();
    await chooseAll([message(3), message(1), message(2)]);

    expect(screen.getByText('Read 3 mails: 3 targets.')).toBeTruthy();
    expect(screen.getByText('3 mails read, 0 could not be read.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Targets: 3' })).toBeTruthy();
    const rows = targetsList();
    expect(rows.map((row) => row.querySelector('label.target')?.textContent)).toEqual([
      'https://invoice-desk.example/pay/1',
      'https://parcel-hold.example/track/2',
      'https://quoted.example/old',
    ]);
    expect(rows[0]?.textContent).toContain('In 2 mails: 1.eml, 3.eml');
    expect(rows[0]?.textContent).toMatch(/First .*2024.*, last .*2024/);
    expect(rows[1]?.textContent).toContain('In one mail: 2.eml');
    expect(rows[1]?.textContent).not.toContain('In 1 mails');
    expect(rows[1]?.textContent).toMatch(/Dated .*2024/);
    // The rows' checkboxes are named by their targets, host included, and all are checked.
    const boxes = screen.getAllByRole<HTMLInputElement>('checkbox');
    expect(boxes.map((box) => box.checked)).toEqual([true, true, true]);
    expect(screen.getByRole('checkbox', { name: /invoice-desk\.example/ })).toBeTruthy();
    expect(screen.getByText('Selected: 3')).toBeTruthy();
  });

  it('opens the targets selected in ONE bulkCreate, then the contexts created', async () => {
    const { sent, actions } = await renderPage({
      handlers: { getSettings: () => settingsView({ bulkConfirmThreshold: 5 }), bulkCreate: createEach, openContexts: ({ ids }) => ({ opened: ids.length }) },
    });
    await chooseAll([message(1), message(2), message(3)]);

    fireEvent.click(screen.getByRole('checkbox', { name: /parcel-hold\.example/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: /quoted\.example/ }));
    fireEvent.click(openButton());

    await screen.findByText('Isolated tabs opened: 1');
    expect(actions()).toEqual(['bulkCreate', 'openContexts']);
    expect(sent('bulkCreate')).toEqual([{ urls: ['https://invoice-desk.example/pay/1'], wrapped: 'unwrap' }]);
  });

  it('asks first above the threshold, as for one mail', async () => {
    const { actions } = await renderPage({
      handlers: { getSettings: () => settingsView({ bulkConfirmThreshold: 2 }), bulkCreate: createEach, openContexts: ({ ids }) => ({ opened: ids.length }) },
    });
    await chooseAll([message(1), message(2)]);

    fireEvent.click(openButton());
    await screen.findByText('Open 3 links in isolation? Each opens in a new tab.');
    expect(actions()).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Open 3 links' }));
    await screen.findByText('Isolated tabs opened: 3');
    expect(actions()).toEqual(['bulkCreate', 'openContexts']);
  });

  it('names each file not read with why, never reading one over the limit, and says what was skipped', async () => {
    const big = vi.fn(() => Promise.resolve(new ArrayBuffer(0)));
    await renderPage();
    await chooseAll([
      message(1),
      new File([''], 'empty.eml', { type: 'message/rfc822' }),
      new File(['just words'], 'notes.txt'),
      { name: 'huge.eml', size: MAIL_LIMITS.bytes + 1, arrayBuffer: big },
    ]);

    expect(screen.getByText('1 mails read, 3 could not be read.')).toBeTruthy();
    const region = screen.getByRole('region', { name: 'Not read' });
    const lines = within(region)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^empty\.eml /);
    expect(lines[1]).toMatch(/^notes\.txt is not a mail/);
    expect(lines[2]).toMatch(/^huge\.eml is 25\.0 MiB, over the limit of 25 MiB, so it was not read/);
    expect(big).not.toHaveBeenCalled();
    expect(targetsList()).toHaveLength(2);
  });

  it('shows each mail’s own card on demand: facts, sender’s story, its links', async () => {
    await renderPage();
    await chooseAll([message(1), message(2)]);

    expect(screen.getByRole('heading', { name: 'The mails read: 2' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'The mail in 2.eml' })).toBeNull();
    const entry = screen.getByRole('button', { name: /^2\.eml/ });
    expect(entry.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(entry);

    const card = await screen.findByRole('region', { name: 'The mail in 2.eml' });
    expect(entry.getAttribute('aria-expanded')).toBe('true');
    expect(within(card).getByText('Report 2')).toBeTruthy();
    expect(within(card).getByText('Sender 2 <s2@mailer.example>')).toBeTruthy();
    expect(within(card).getByRole('region', { name: 'Who sent it' })).toBeTruthy();
    expect(within(card).getByText('https://parcel-hold.example/track/2')).toBeTruthy();
  });

  it('copies one mail’s case note from its card, the one caseNote gives for that mail alone', async () => {
    const { copied, actions } = await renderPage();
    await chooseAll([message(1), message(2)]);
    expect(screen.getByRole('button', { name: /^2\.eml.*· 1 link$/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /^2\.eml/ }));
    const card = await screen.findByRole('region', { name: 'The mail in 2.eml' });

    fireEvent.click(within(card).getByRole('button', { name: 'Copy case note' }));

    await within(card).findByText('Case note copied: Markdown, every link defanged');
    const reading = await linksInMail(readFileSync(resolve(MESSAGES, '2.eml')));
    if (!reading.ok) throw new Error(reading.reason);
    expect(copied).toEqual([caseNote(reading, '2.eml')]);
    expect(copied[0]).toContain('hxxps://parcel-hold\\[.\\]example/track/2');
    expect(copied[0]).not.toContain('invoice');
    expect(actions()).toEqual([]);
  });

  it('reads an image chosen among mails for its codes: their targets join the list, the image named as their file', async () => {
    const decoder: ImageDecoder = () => Promise.resolve([{ text: 'hxxps://qr-pay[.]example/scan', format: 'QRCode', box: null }]);
    await renderPage({ loadReader: () => Promise.resolve({ linksInMail, linksInImage, decoder }) });
    await chooseAll([message(2), new File([QR_PNG], 'scan.png', { type: 'image/png' })]);

    expect(screen.getByText('2 mails read, 0 could not be read.')).toBeTruthy();
    expect(screen.queryByText(/images skipped/)).toBeNull();
    const row = targetsList().find((item) => item.textContent.includes('https://qr-pay.example/scan'));
    expect(row?.textContent).toContain('In one mail: scan.png');
  });

  it('says how far it got while reading, one mail after another', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let calls = 0;
    const reader = async (bytes: Uint8Array, options: Parameters<typeof linksInMail>[1]): Promise<MailReading> => {
      calls++;
      if (calls === 2) await held;
      return linksInMail(bytes, options);
    };
    await renderPage({ loadReader: () => Promise.resolve({ linksInMail: reader }) });
    fireEvent.change(fileInput(), { target: { files: [message(1), message(2), message(3)] } });

    await screen.findByText('Reading 2 of 3: 2.eml…');
    await waitFor(() => {
      expect(calls).toBe(2);
    });
    // The second mail is held: the page waits on it, reading no other meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toBe(2);
    expect(screen.getByText('Reading 2 of 3: 2.eml…')).toBeTruthy();
    release();
    await screen.findByText('Read 3 mails: 3 targets.');
    expect(calls).toBe(3);
  });

  it('reads a dropped folder: its mails by their paths, other files counted', async () => {
    await renderPage();
    const entry = (path: string, file: File | null) => ({
      isFile: file !== null,
      isDirectory: file === null,
      name: path.slice(path.lastIndexOf('/') + 1),
      fullPath: `/${path}`,
      file: (ok: (value: File) => void) => {
        if (file !== null) ok(file);
      },
    });
    const folder = {
      ...entry('reports', null),
      createReader: () => {
        let given = false;
        return {
          readEntries: (ok: (entries: unknown[]) => void) => {
            ok(given ? [] : [entry('reports/1.eml', message(1)), entry('reports/2.eml', message(2)), entry('reports/notes.txt', new File(['x'], 'notes.txt'))]);
            given = true;
          },
        };
      },
    };
    drag('drop', { types: ['Files'], files: [], items: [{ kind: 'file', webkitGetAsEntry: () => folder }] } as never);

    await screen.findByText('Read 2 mails: 3 targets.');
    expect(screen.getByText('1 other files skipped: only .eml and .msg files of a folder are read.')).toBeTruthy();
    expect(targetsList()[0]?.textContent).toContain('reports/1.eml');
    expect(screen.getByRole('button', { name: /^reports\/2\.eml/ })).toBeTruthy();
  });

  it('reads one file dropped or chosen as it always did', async () => {
    await renderPage();
    drag('drop', { types: ['Files'], files: [message(2)] });
    await screen.findByRole('region', { name: 'The mail in 2.eml' });
    expect(screen.queryByRole('heading', { name: 'Several reported mails' })).toBeNull();
    expect(links()).toHaveLength(1);
    await waitFor(() => {
      expect(screen.getByText('Read 2.eml: 1 links.')).toBeTruthy();
    });
  });
});
