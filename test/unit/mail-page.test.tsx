// @vitest-environment happy-dom
/**
 * The reported mail page against a fake Connector and the real mail reader: the mail's
 * facts and links, the checkboxes' names, the mismatch warning, refused rows, zero links,
 * every failure, a file over the limit (never read), the confirmation above the threshold,
 * one bulkCreate with the selected links then openContexts, and copying defanged.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { MAX_BULK_URLS } from '../../src/messaging/limits';
import { RemoteError } from '../../src/messaging/page';
import type { Status } from '../../src/messaging/protocol';
import { caseNote, linksInImage, linksInMail, MAIL_LIMITS, type MailFailureCode } from '../../src/readers';
import { App } from '../../src/ui/mail/App';
import { splitHost } from '../../src/ui/mail/LinkRow';
import {
  CONFIGURED,
  choose,
  context,
  createEach,
  drag,
  fakeConnector,
  fileInput,
  links,
  openButton,
  renderPage,
  settingsView,
  useMailPage,
} from '../support/mail-page';
import { wrap } from '../support/wrap';

useMailPage();

// ---- mails ------------------------------------------------------------------

const REAL_INVOICE = 'https://invoice.evil.example/pay?id=7';
const SAFE_LINK = wrap.safelinks(REAL_INVOICE);

/** A MIME mail with the given HTML body (CRLF line ends, as mail systems write them). */
function mail(html: string, headers: Record<string, string> = {}): string {
  const all = {
    From: '"PayPal Service" <service@paypal.example.net>',
    To: 'analyst@acme.example',
    Subject: 'Your account is limited',
    Date: 'Tue, 24 Nov 2026 09:15:00 +0000',
    'MIME-Version': '1.0',
    'Content-Type': 'text/html; charset=utf-8',
    ...headers,
  };
  const head = Object.entries(all).map(([name, value]) => `${name}: ${value}`);
  return [...head, '', html].join('\r\n');
}

/** The phishing mail: a lying link, a Safe Link, a refused javascript: link, a plain one, two remote resources. */
const PHISH = mail(
  [
    '<html><head><link rel="stylesheet" href="https://cdn.tracker.example/a.css"></head><body>',
    '<p>Dear customer, <a href="https://paypa1-login.example/verify?acc=1">www.paypal.com</a></p>',
    `<p><a href="${SAFE_LINK.replaceAll('&', '&amp;')}">View your invoice</a></p>`,
    '<p><a href="javascript:alert(1)">Unsubscribe</a></p>',
    '<p><a href="https://docs.evil.example/share">Open the shared document</a></p>',
    '<img src="https://tracker.example/p.gif" alt="">',
    '</body></html>',
  ].join('\r\n'),
);

const NO_LINKS = mail('<html><body><p>Please call us back about your account.</p></body></html>', { Subject: 'Call us' });

/** A mail of the sender corpus (test/fixtures/mail/sender, written by Python's email package). */
function senderMail(name: string): string {
  return readFileSync(resolve(import.meta.dirname, '../fixtures/mail/sender', name), 'utf8');
}

/** A mail of the charset corpus (test/fixtures/mail/charset, written by Python's codecs and email package), as its bytes. */
function charsetMail(name: string): File {
  return new File([readFileSync(resolve(import.meta.dirname, '../fixtures/mail/charset', name))], name, { type: 'message/rfc822' });
}

function file(text: string, name = 'reported.eml'): File {
  return new File([text], name, { type: 'message/rfc822' });
}

// ---- reading ----------------------------------------------------------------

describe('mail page: a mail read', () => {
  it('names its file input "Reported mail" and accepts .eml and .msg, saved attachments (PDFs too), and the images read for QR codes', async () => {
    await renderPage();

    const input = fileInput();
    expect(input.type).toBe('file');
    expect(input.accept.split(',')).toEqual([
      ...'.eml,.msg,message/rfc822,application/vnd.ms-outlook,.html,.htm,text/html,.svg,image/svg+xml,.pdf,application/pdf,image/png,image/jpeg,image/gif,image/webp,image/bmp'.split(
        ',',
      ),
      ...'.zip,application/zip,application/x-zip-compressed,.rtf,application/rtf,text/rtf'.split(','),
      ...'.docx,.docm,.dotx,.dotm,.xlsx,.xlsm,.pptx,.pptm'.split(','),
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    ]);
    expect(screen.getByText(/drop the mail or image anywhere on this page, or paste a screenshot/)).toBeTruthy();
  });

  it('shows From, Subject and Date, the remote resources, and one row per link in the mail’s order', async () => {
    await renderPage();
    await choose(file(PHISH));

    const facts = screen.getByRole('region', { name: 'The mail in reported.eml' });
    expect(within(facts).getByText('PayPal Service <service@paypal.example.net>')).toBeTruthy();
    expect(within(facts).getByText('Your account is limited')).toBeTruthy();
    expect(within(facts).getByText('Date').nextElementSibling?.textContent).toMatch(/2026/);
    expect(within(facts).getByText('If shown, this mail would load 2 remote images, stylesheets or fonts; Isolink loaded none.')).toBeTruthy();
    expect(links().map((row) => row.querySelector('.mono')?.textContent)).toEqual([
      'https://paypa1-login.example/verify?acc=1',
      REAL_INVOICE,
      'javascript:alert(1)',
      'https://docs.evil.example/share',
    ]);
    expect(screen.getByRole('heading', { name: 'Links: 4' })).toBeTruthy();
  });

  it('names each checkbox by its real target, host included and emphasised; all are checked at first', async () => {
    await renderPage();
    await choose(file(PHISH));

    const boxes = screen.getAllByRole<HTMLInputElement>('checkbox');
    expect(boxes.map((box) => box.checked)).toEqual([true, true, true]);
    expect(screen.getByRole('checkbox', { name: /paypa1-login\.example/ })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: /invoice\.evil\.example/ })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: /docs\.evil\.example/ })).toBeTruthy();
    expect([...document.querySelectorAll('label.target strong')].map((strong) => strong.textContent)).toEqual([
      'paypa1-login.example',
      'invoice.evil.example',
      'docs.evil.example',
    ]);
    expect(screen.getByText('Selected: 3')).toBeTruthy();
  });

  it('warns in words when the text names another site than the link goes to', async () => {
    await renderPage();
    await choose(file(PHISH));

    const warning = screen.getByText('The text shows www.paypal.com but the link goes to paypa1-login.example');
    const row = warning.closest('li');
    expect(row?.textContent).toContain('https://paypa1-login.example/verify?acc=1');
    // The warning describes the checkbox, so it is heard with it.
    const box = screen.getByRole('checkbox', { name: /paypa1-login\.example/ });
    expect(box.getAttribute('aria-describedby')).toBe(warning.closest('.about')?.id);
    expect(screen.getAllByText(/^The text shows/)).toHaveLength(1);
  });

  it('says what wrapped a link and where each link was found', async () => {
    await renderPage();
    await choose(file(PHISH));

    const row = screen.getByRole('checkbox', { name: /invoice\.evil\.example/ }).closest('li');
    expect(row?.textContent).toContain('Wrapped by Microsoft Safe Links; this is the real target behind it.');
    expect(row?.textContent).toContain('Shown as: View your invoice');
    expect(row?.textContent).toContain('Found in the HTML body');
  });

  it('reads a saved SVG on its own, labelling a link only its script names as found in a script', async () => {
    await renderPage();
    const svg = `<svg><a href="https://shown.example/"><text>Play</text></a><script>location = 'htt' + 'ps://voice.evil.example/l'</script></svg>`;
    await choose(file(svg, 'VoiceMessage.svg'));

    const row = screen.getByRole('checkbox', { name: /voice\.evil\.example/ }).closest('li');
    expect(row?.textContent).toContain('In a script (read as text, never run)');
    expect(row?.textContent).toContain('Found in the attachment VoiceMessage.svg');
    const other = screen.getByRole('checkbox', { name: /shown\.example/ }).closest('li');
    expect(other?.textContent).not.toContain('In a script');
  });

  it('shows a refused link without a checkbox, saying why in the analyst’s words', async () => {
    await renderPage();
    await choose(file(PHISH));

    const row = links()[2];
    expect(row).toBeDefined();
    expect(within(row as HTMLElement).queryByRole('checkbox')).toBeNull();
    expect(row?.textContent).toContain('This link was not isolated: it uses the javascript: scheme. Only http and https links can be opened in isolation.');
  });

  it('says so plainly when the mail has no links, with what to do next', async () => {
    const { actions } = await renderPage();
    await choose(file(NO_LINKS));

    expect(screen.getByRole('heading', { name: 'Links: 0' })).toBeTruthy();
    expect(screen.getByText(/This mail has no links, so there is nothing to open in isolation/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /open selected in isolation/i })).toBeNull();
    expect(actions()).toEqual([]);
  });

  it('lists the parts left unread, said from their codes', async () => {
    const problems = { code: 'tooManyLinks', params: ['20000', '3'], reason: 'x' } as const;
    const attached = { code: 'attachmentUnreadable', params: ['not a mail'], reason: 'x', where: 'attachment:invoice.msg' } as const;
    await renderPage({
      loadReader: () =>
        Promise.resolve({
          linksInMail: async (bytes, options) => {
            const read = await linksInMail(bytes, options);
            return read.ok ? { ...read, problems: [problems, attached] } : read;
          },
        }),
    });
    await choose(file(PHISH));

    const region = screen.getByRole('region', { name: 'Parts of the mail that were not read fully' });
    expect(
      within(region)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['The mail has more than 20000 links: 3 more were not listed.', 'the attachment invoice.msg: It could not be read (not a mail).']);
  });

  it('says a part in a charset Isolink does not know, where it is and what it was read as', async () => {
    await renderPage();
    // From the charset corpus (test/fixtures/mail/charset, written by Python): HTML in cp850, text and a subject word in a private label.
    await choose(charsetMail('04-unknown-charset.eml'));

    const region = screen.getByRole('region', { name: 'Parts of the mail that were not read fully' });
    expect(
      within(region)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'the HTML body: It is written in the charset “cp850”, which Isolink does not know: it was read as windows-1252, so some of its words may be wrong.',
      'the text body: It is written in the charset “x-private-label”, which Isolink does not know: it was read as utf-8, so some of its words may be wrong.',
      'the Subject header: It is written in the charset “x-private-label”, which Isolink does not know: it was read as utf-8, so some of its words may be wrong.',
    ]);
    // Read anyway: its links are listed.
    expect(screen.getByRole('checkbox', { name: /cp850-portal\.example/ })).toBeTruthy();
  });

  it('lists the links of a mail written in UTF-7', async () => {
    await renderPage();
    await choose(charsetMail('01-utf7-html-body.eml'));

    expect(screen.getByRole('checkbox', { name: /evil-ut7\.example/ })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: /konto-pruefung\.example/ })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Parts of the mail that were not read fully' })).toBeNull();
  });

  it('tells the sender’s story: the verdicts at receipt, the hop it came in by, replies sent elsewhere', async () => {
    await renderPage();
    await choose(file(senderMail('02-microsoft-365.eml')));

    const story = screen.getByRole('region', { name: 'Who sent it' });
    // Its Return-Path is on the sender's own domain: not shown.
    expect(within(story).queryByText('Bounces go to (Return-Path)')).toBeNull();
    expect(
      within(story)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['SPF fail', 'DKIM none', 'DMARC fail', 'compauth fail', "Replies would go to another domain than the sender's."]);
    expect(within(story).getByText('Replies go to (Reply-To)').nextElementSibling?.textContent).toBe('helpdesk@reply-desk.example');
    expect(within(story).getByText('mail.m365-alerts.example [198.51.100.23] to BN8NAM12FT055.mail.protection.outlook.com')).toBeTruthy();
  });

  it('describes the original of a user’s report, and shows an IDN sender’s look-alike domain', async () => {
    await renderPage();
    await choose(file(senderMail('06-user-report.eml')));

    const facts = screen.getByRole('region', { name: 'The mail in reported.eml' });
    expect(within(facts).getByText('Jordan Lee <jordan.lee@corp.example>')).toBeTruthy();
    const story = screen.getByRole('region', { name: 'Who sent it' });
    expect(within(story).getByText('The original mail, from').nextElementSibling?.textContent).toBe('Shared Files <share@files-portal.example>');

    await choose(file(senderMail('04-name-holds-domain-idn.eml'), 'idn.eml'));

    const idn = screen.getByRole('region', { name: 'The mail in idn.eml' });
    expect(within(idn).getByText('From (as the mail claims)').nextElementSibling?.textContent).toBe(
      'www.paypal.com \u015cervice <service@xn--pypal-4ve.example> (xn--pypal-4ve.example reads as \u201cp\u0430ypal.example\u201d)',
    );
    expect(within(idn).getByText("The display name names another domain than the sender's.")).toBeTruthy();
  });

  it('lists the files with their hashes, and flags one whose label lies about its content', async () => {
    // The mail holds a PNG: a decoder that finds no code in it stands in for the page's frame.
    await renderPage({ loadReader: () => Promise.resolve({ linksInMail, linksInImage, decoder: () => Promise.resolve([]) }) });
    await choose(file(readFileSync(resolve(import.meta.dirname, '../fixtures/mail/files/01-attachments.eml'), 'utf8')));

    // Eight attached, and the page inside archive.zip.
    const table = screen.getByRole('table', { name: 'Files (9)' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(9);
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells(rows[0] as HTMLElement)).toEqual([
      'Invoice_4471.pdf',
      'application/pdf Not what it claims: its content is text/html.',
      '160 bytes',
      '916425be8e8fc5ca8e94303e27e65202882558c195e9287571f3887631937a2f',
    ]);
    expect(cells(rows[1] as HTMLElement)[1]).toBe('application/pdf');
    expect(cells(rows[4] as HTMLElement)[0]).toContain('statement.html');
    expect(within(table).getAllByText(/^Not what it claims/)).toHaveLength(2);
  });

  it('takes a file dropped anywhere on the page', async () => {
    await renderPage();
    drag('dragEnter', { types: ['Files'], files: [] });
    await screen.findByText('Drop the file to read its links');

    drag('drop', { types: ['Files'], files: [file(PHISH, 'dropped.eml')] });

    await screen.findByRole('region', { name: 'The mail in dropped.eml' });
    expect(screen.getAllByRole('checkbox')).toHaveLength(3);
    expect(screen.queryByText('Drop the file to read its links')).toBeNull();
  });

  it('says what to do when something other than a file is dropped', async () => {
    await renderPage();
    drag('drop', { types: ['text/uri-list'], files: [] });

    await screen.findByText('Only a file can be dropped here: drop a mail saved as .eml or .msg.');
  });
});

// ---- failures ---------------------------------------------------------------

describe('mail page: files it cannot read', () => {
  it('does not read a file over the limit: neither its bytes nor the reader are touched', async () => {
    const arrayBuffer = vi.fn(() => Promise.resolve(new ArrayBuffer(0)));
    const loadReader = vi.fn(() => Promise.resolve({ linksInMail }));
    await renderPage({ loadReader });

    await choose({ name: 'huge.eml', size: MAIL_LIMITS.bytes + 1, arrayBuffer });

    expect(screen.getByRole('alert').textContent).toBe(
      'huge.eml is 25.0 MiB, over the limit of 25 MiB, so it was not read. Save the mail without its large attachments and choose that file.',
    );
    expect(arrayBuffer).not.toHaveBeenCalled();
    expect(loadReader).not.toHaveBeenCalled();
  });

  it.each([
    ['an empty file', '', 'empty.eml', 'empty.eml is empty. Choose the reported mail itself, saved as .eml or .msg.'],
    [
      'a file that is not a mail',
      'just some notes, not a mail at all\n',
      'notes.txt',
      'notes.txt is not a mail: neither a saved mail (.eml), an Outlook message (.msg), nor an HTML page or SVG image. Save the reported mail from your mail program (Save as, or drag it out) and choose that file.',
    ],
  ])('says so plainly for %s, read by the real reader', async (_name, text, name, expected) => {
    const { actions } = await renderPage();
    await choose(file(text, name));

    expect(screen.getByRole('alert').textContent).toBe(expected);
    expect(screen.queryByRole('list', { name: /^Links/ })).toBeNull();
    expect(actions()).toEqual([]);
  });

  it.each<[MailFailureCode, string[], string]>([
    ['mailEmpty', [], 'bad.msg is empty. Choose the reported mail itself, saved as .eml or .msg.'],
    ['mailTooLarge', ['25'], 'bad.msg is larger than the limit of 25 MiB and was not read. Save the mail without its large attachments and choose that file.'],
    [
      'notMail',
      [],
      'bad.msg is not a mail: neither a saved mail (.eml), an Outlook message (.msg), nor an HTML page or SVG image. Save the reported mail from your mail program (Save as, or drag it out) and choose that file.',
    ],
    ['notCompoundFile', [], 'bad.msg is not an Outlook message (.msg) as its name says. Save the mail again from Outlook, or as .eml, and choose that file.'],
    [
      'mailUnreadable',
      ['unexpected end of stream'],
      'bad.msg could not be read as a mail (unexpected end of stream). The file may be damaged: save the mail again, or ask the reporter to send it as an attachment.',
    ],
  ])('says %s from its code, with what to do next', async (code, params, expected) => {
    await renderPage({ loadReader: () => Promise.resolve({ linksInMail: () => Promise.resolve({ ok: false, code, params, reason: 'English' }) }) });
    await choose(file('x', 'bad.msg'));

    expect(screen.getByRole('alert').textContent).toBe(expected);
  });

  it('says a mail the reader throws on is damaged, rather than reading forever', async () => {
    await renderPage({ loadReader: () => Promise.resolve({ linksInMail: () => Promise.reject(new Error('bad header')) }) });
    await choose(file(PHISH));

    expect(screen.getByRole('alert').textContent).toBe(
      'reported.eml could not be read as a mail (bad header). The file may be damaged: save the mail again, or ask the reporter to send it as an attachment.',
    );
  });

  it('says what to do when the reader cannot be loaded', async () => {
    await renderPage({ loadReader: () => Promise.reject(new Error('chunk gone')) });
    await choose(file(PHISH));

    expect(screen.getByRole('alert').textContent).toBe('Isolink could not load its mail reader. Reload this page and choose the file again.');
  });
});

// ---- actions ----------------------------------------------------------------

describe('mail page: opening and copying the selected links', () => {
  it('sends the selected links as written in ONE bulkCreate, then opens the created contexts', async () => {
    const { sent, actions } = await renderPage({
      handlers: { bulkCreate: createEach, openContexts: ({ ids }) => ({ opened: ids.length }) },
    });
    await choose(file(PHISH));
    fireEvent.click(screen.getByRole('checkbox', { name: /docs\.evil\.example/ }));
    expect(screen.getByText('Selected: 2')).toBeTruthy();

    fireEvent.click(openButton());

    await screen.findByText('Isolated tabs opened: 2');
    expect(actions()).toEqual(['bulkCreate', 'openContexts']);
    // The links as the mail wrote them: the background resolves each again.
    expect(sent('bulkCreate')).toEqual([{ urls: ['https://paypa1-login.example/verify?acc=1', SAFE_LINK], wrapped: 'unwrap' }]);
    expect(sent('openContexts')).toEqual([{ ids: ['ctx-1', 'ctx-2'] }]);
    expect(screen.getByRole('heading', { name: 'Isolated sessions created: 2' })).toBeTruthy();
  });

  it('shows what failed beside what was created', async () => {
    await renderPage({
      handlers: {
        bulkCreate: ({ urls }) => ({
          created: [context('ctx-1', urls[0] ?? '')],
          failures: [{ url: urls[1] ?? '', error: 'The service refused the request (policy).' }],
        }),
        openContexts: ({ ids }) => ({ opened: ids.length }),
      },
    });
    await choose(file(PHISH));
    fireEvent.click(screen.getByRole('checkbox', { name: /docs\.evil\.example/ }));
    fireEvent.click(openButton());

    await screen.findByText('Isolated tabs opened: 1');
    expect(screen.getByRole('heading', { name: 'Not created: 1' })).toBeTruthy();
    expect(screen.getByText('The service refused the request (policy).')).toBeTruthy();
  });

  it('asks first above the threshold, sends nothing until confirmed, and nothing on Cancel', async () => {
    const { sent, actions } = await renderPage({
      handlers: { getSettings: () => settingsView({ bulkConfirmThreshold: 2 }), bulkCreate: createEach, openContexts: ({ ids }) => ({ opened: ids.length }) },
    });
    await choose(file(PHISH));

    fireEvent.click(openButton());
    const step = screen.getByRole('group', { name: 'Open 3 links in isolation? Each opens in a new tab.' });
    expect(actions()).toEqual([]);
    fireEvent.click(within(step).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('group', { name: /Open 3 links/ })).toBeNull();
    expect(actions()).toEqual([]);

    fireEvent.click(openButton());
    fireEvent.click(screen.getByRole('button', { name: 'Open 3 links' }));

    await screen.findByText('Isolated tabs opened: 3');
    expect(sent('bulkCreate')).toEqual([
      { urls: ['https://paypa1-login.example/verify?acc=1', SAFE_LINK, 'https://docs.evil.example/share'], wrapped: 'unwrap' },
    ]);
    await waitFor(() => {
      expect(screen.queryByRole('group', { name: /Open 3 links/ })).toBeNull();
    });
  });

  it('does not ask at or under the threshold', async () => {
    const { actions } = await renderPage({
      handlers: { getSettings: () => settingsView({ bulkConfirmThreshold: 3 }), bulkCreate: createEach, openContexts: ({ ids }) => ({ opened: ids.length }) },
    });
    await choose(file(PHISH));
    fireEvent.click(openButton());

    await screen.findByText('Isolated tabs opened: 3');
    expect(actions()).toEqual(['bulkCreate', 'openContexts']);
  });

  it(`says so and sends nothing when more than ${String(MAX_BULK_URLS)} links are selected`, async () => {
    const many = Array.from({ length: MAX_BULK_URLS + 1 }, (_, i) => `<a href="https://site${String(i)}.evil.example/">x</a>`).join('\r\n');
    const { actions } = await renderPage();
    await choose(file(mail(`<html><body>${many}</body></html>`)));

    fireEvent.click(openButton());

    expect(screen.getByRole('alert').textContent).toBe(
      `${String(MAX_BULK_URLS + 1)} links are selected; at most ${String(MAX_BULK_URLS)} can be opened at once. Uncheck some and try again.`,
    );
    expect(actions()).toEqual([]);
  });

  it('says so when nothing is selected', async () => {
    const { actions } = await renderPage();
    await choose(file(PHISH));
    for (const box of screen.getAllByRole('checkbox')) fireEvent.click(box);

    fireEvent.click(openButton());

    expect(screen.getByRole('alert').textContent).toBe('No link is selected: check the links to open or copy.');
    expect(actions()).toEqual([]);
  });

  it('shows the background’s words when the creation fails', async () => {
    await renderPage({
      handlers: {
        bulkCreate: () => {
          throw new RemoteError({ name: 'ConfigError', message: 'Set the service URL in the options.' });
        },
      },
    });
    await choose(file(PHISH));
    fireEvent.click(openButton());

    expect((await screen.findByRole('alert')).textContent).toBe('Set the service URL in the options.');
  });

  it('copies the selected real targets defanged, one per line', async () => {
    const { copied, actions } = await renderPage();
    await choose(file(PHISH));
    fireEvent.click(screen.getByRole('checkbox', { name: /paypa1-login\.example/ }));

    fireEvent.click(screen.getByRole('button', { name: 'Copy selected defanged' }));

    await screen.findByText('Copied, defanged: 2 links');
    expect(copied).toEqual(['hxxps://invoice[.]evil[.]example/pay?id=7\nhxxps://docs[.]evil[.]example/share']);
    expect(actions()).toEqual([]);
  });

  it("copies the mail's case note, the one caseNote gives, through the same clipboard", async () => {
    const { copied, actions } = await renderPage();
    await choose(file(PHISH));

    fireEvent.click(screen.getByRole('button', { name: 'Copy case note' }));

    await screen.findByText('Case note copied: Markdown, every link defanged');
    const reading = await linksInMail(new TextEncoder().encode(PHISH));
    if (!reading.ok) throw new Error(reading.reason);
    expect(copied).toEqual([caseNote(reading, 'reported.eml')]);
    expect(copied[0]).toContain('1. hxxps://paypa1-login\\[.\\]example/verify?acc=1; **MISMATCH**; shown as "www\\[.\\]paypal\\[.\\]com"; found in html');
    expect(copied[0]).not.toMatch(/https?:/i);
    expect(actions()).toEqual([]);
  });
});

// ---- wrapped links, where the settings ask -----------------------------------

describe('mail page: wrapped links under "ask"', () => {
  it('offers the choice, reads the mail again with it, and sends the mode it read with', async () => {
    const { sent } = await renderPage({
      handlers: { getSettings: () => settingsView({ unwrap: 'ask' }), bulkCreate: createEach, openContexts: ({ ids }) => ({ opened: ids.length }) },
    });
    await choose(file(PHISH));
    const choice = screen.getByRole('group', { name: 'Some links are wrapped by a mail gateway. Open:' });
    expect(within(choice).getByRole<HTMLInputElement>('radio', { name: 'the real targets' }).checked).toBe(true);

    fireEvent.click(within(choice).getByRole('radio', { name: 'the links as written' }));

    const kept = await screen.findByRole('checkbox', { name: /nam12\.safelinks\.protection\.outlook\.com/ });
    expect(kept.closest('li')?.textContent).toContain('Wrapped by Microsoft Safe Links; kept as written, so the isolated browser follows its redirect.');
    expect(screen.queryByRole('checkbox', { name: /^https:\/\/invoice\.evil\.example/ })).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: /paypa1-login\.example/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: /docs\.evil\.example/ }));
    fireEvent.click(openButton());

    await screen.findByText('Isolated tabs opened: 1');
    expect(sent('bulkCreate')).toEqual([{ urls: [SAFE_LINK], wrapped: 'keep' }]);
  });

  it('offers no choice when the settings decide', async () => {
    await renderPage({ handlers: { getSettings: () => settingsView({ unwrap: 'keep' }) } });
    await choose(file(PHISH));

    expect(screen.queryByRole('group', { name: /wrapped by a mail gateway/ })).toBeNull();
    expect(screen.getByRole('checkbox', { name: /safelinks\.protection\.outlook\.com/ })).toBeTruthy();
  });
});

// ---- the page around the mail -------------------------------------------------

describe('mail page: set-up and helpers', () => {
  it('says when Isolink is not set up, and opens the options', async () => {
    const unconfigured: Status = { ...CONFIGURED, configured: false, problems: ['Enter the admin token in the options.'] };
    const opened: number[] = [];
    const fake = fakeConnector({ getStatus: () => unconfigured });
    render(
      <App
        connector={fake.connector}
        openOptions={() => {
          opened.push(1);
          return Promise.resolve();
        }}
      />,
    );
    await screen.findByText(/Isolink is not set up yet/);
    expect(screen.getByText('Enter the admin token in the options.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Open options' }));

    expect(opened).toEqual([1]);
  });

  it('splits a URL around its host, the user name part not taken for it', () => {
    expect(splitHost('https://paypal.com@evil.example:8443/a?b#c')).toEqual({ before: 'https://paypal.com@', host: 'evil.example:8443', after: '/a?b#c' });
    expect(splitHost('https://evil.example/')).toEqual({ before: 'https://', host: 'evil.example', after: '/' });
    expect(splitHost('not a url')).toBeNull();
  });
});
