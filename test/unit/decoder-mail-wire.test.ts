/**
 * The mail messages between the mail page and its decoder (src/ui/decoder/wire,
 * wire-mail): the mail is read in the decoder, and the page takes its reading only in the
 * exact shape of a MailReading, within bounds. A real reading passes as the sandbox sends it;
 * one past a bound, with a code the page does not know, or of another shape is refused, and
 * so dropped by the page. The sandbox (serveDecoder) reads a mail on its port and answers.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { linksInMail, MAIL_LIMITS, type MailReading, type MailReport } from '../../src/readers';
import { serveDecoder } from '../../src/ui/decoder/sandbox';
import { REPLY, REQUEST, type Reply } from '../../src/ui/decoder/wire';
import { fitMailReading, fromWire, MAIL_READING, MAIL_WIRE } from '../../src/ui/decoder/wire-mail';

function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../fixtures/mail/eml/${name}`, import.meta.url)));
}

async function reportOf(name: string): Promise<MailReport> {
  const reading = await linksInMail(fixture(name), { name });
  if (!reading.ok) throw new Error(reading.reason);
  return reading;
}

/** A reading the page must refuse: the report with one part changed. */
function changed(report: MailReport, change: Record<string, unknown>): unknown {
  return { ...report, ...change };
}

describe('the decoder wire: mails', () => {
  it('takes a mail to read as an ArrayBuffer within MAIL_LIMITS.bytes, with how to unwrap and its name', () => {
    const mail = fixture('13-forward-as-attachment.eml').slice().buffer;
    expect(REQUEST.safeParse({ kind: 'mail', id: 1, mail, unwrap: 'keep', name: 'a.eml' }).success).toBe(true);
    expect(REQUEST.safeParse({ kind: 'mail', id: 1, mail, unwrap: 'unwrap', name: 'a.eml', format: 'msg' }).success).toBe(true);
    expect(REQUEST.safeParse({ kind: 'mail', id: 1, mail: new ArrayBuffer(MAIL_LIMITS.bytes + 1), unwrap: 'keep', name: '' }).success).toBe(false);
    expect(REQUEST.safeParse({ kind: 'mail', id: 1, mail: new Uint8Array(mail), unwrap: 'keep', name: '' }).success).toBe(false);
    expect(REQUEST.safeParse({ kind: 'mail', id: 1, mail, unwrap: 'ask', name: '' }).success).toBe(false);
    expect(REQUEST.safeParse({ kind: 'mail', id: 1, mail, unwrap: 'keep', name: 'x'.repeat(MAIL_WIRE.text + 1) }).success).toBe(false);
  });

  it.each(['13-forward-as-attachment.eml', '25-refused-schemes.eml', '37-gateway-zoo.eml', '45-display-name-spoof.eml', '46-svg-voice-message.eml'])(
    'accepts the reading of %s as linksInMail gives it, and gives it back the same',
    async (name) => {
      const report = await reportOf(name);
      expect(REPLY.safeParse({ kind: 'mail', id: 2, reading: report }).success).toBe(true);
      const parsed = MAIL_READING.safeParse(fitMailReading(report));
      expect(parsed.success).toBe(true);
      expect(fromWire(parsed.data as never)).toEqual(report);
    },
  );

  it('accepts a failure the page can name', async () => {
    const reading = await linksInMail(new TextEncoder().encode('not a mail at all'));
    expect(reading.ok).toBe(false);
    expect(REPLY.safeParse({ kind: 'mail', id: 2, reading }).success).toBe(true);
  });

  it('fits a reading past the bounds, so an honest sandbox always answers what the page accepts', async () => {
    const report = await reportOf('13-forward-as-attachment.eml');
    const [first] = report.links;
    if (first === undefined) throw new Error('no link');
    const long = `https://a.example/${'a'.repeat(MAIL_WIRE.url)}`;
    const huge: MailReading = {
      ...report,
      subject: 's'.repeat(100_000),
      links: [{ ...first, url: long, target: long, where: Array.from({ length: 500 }, (_, index) => `attachment:${String(index)}`) }, ...report.links],
      problems: Array.from({ length: MAIL_WIRE.problems + 5 }, () => ({
        code: 'attachmentUnreadable' as const,
        params: ['p'.repeat(5000)],
        reason: 'r'.repeat(50_000),
      })),
    };
    expect(MAIL_READING.safeParse(huge).success).toBe(false);
    const fitted = fitMailReading(huge);
    expect(MAIL_READING.safeParse(fitted).success).toBe(true);
    if (!fitted.ok) throw new Error('fitted into a failure');
    // A link too long to send whole is sent refused: cut, it would be another link, so it cannot be opened.
    expect(fitted.links[0]).toMatchObject({ target: null, refused: { code: 'urlTooLong' }, wrappedBy: [] });
    expect(fitted.links[0]?.url.length).toBeLessThanOrEqual(MAIL_WIRE.url);
    expect(fitted.links[0]?.where).toHaveLength(MAIL_WIRE.where);
    expect(fitted.problems).toHaveLength(MAIL_WIRE.problems);
  });

  it.each([
    ['a failure code the page does not know', { ok: false, code: 'mailFine', params: [], reason: '' }],
    ['a failure with five params', { ok: false, code: 'notMail', params: ['1', '2', '3', '4', '5'], reason: '' }],
  ])('refuses a failure with %s', (_, reading) => {
    expect(REPLY.safeParse({ kind: 'mail', id: 2, reading }).success).toBe(false);
  });

  it('refuses a report past a bound, with an unknown code, or of another shape', async () => {
    const report = await reportOf('13-forward-as-attachment.eml');
    const [link] = report.links;
    const [file] = report.attachments;
    if (link === undefined || file === undefined) throw new Error('fixture changed');
    const refusals: [string, unknown][] = [
      ['more links than MAIL_LIMITS.links', changed(report, { links: Array.from({ length: MAIL_LIMITS.links + 1 }, () => link) })],
      ['a link longer than MAIL_WIRE.url', changed(report, { links: [{ ...link, url: 'x'.repeat(MAIL_WIRE.url + 1) }] })],
      ['an empty link', changed(report, { links: [{ ...link, url: '' }] })],
      ['a shown text past MAIL_LIMITS.shownLength', changed(report, { links: [{ ...link, shown: 'x'.repeat(MAIL_LIMITS.shownLength + 1) }] })],
      ['a link found nowhere', changed(report, { links: [{ ...link, where: [] }] })],
      ['a wrapper the page does not know', changed(report, { links: [{ ...link, wrappedBy: ['evilwrap'] }] })],
      ['a refusal code the page does not know', changed(report, { links: [{ ...link, target: null, refused: { code: 'urlFine', reason: '', params: [] } }] })],
      ['a link with a field more', changed(report, { links: [{ ...link, onclick: 'x' }] })],
      ['a mismatch that is not a boolean', changed(report, { links: [{ ...link, mismatch: 'yes' }] })],
      ['a subject past MAIL_WIRE.text', changed(report, { subject: 'x'.repeat(MAIL_WIRE.text + 1) })],
      ['a format the page does not know', changed(report, { format: 'exe' })],
      ['more files than MAIL_LIMITS.files', changed(report, { attachments: Array.from({ length: MAIL_LIMITS.files + 1 }, () => file) })],
      ['a hash that is not one', changed(report, { attachments: [{ ...file, sha256: 'z'.repeat(64) }] })],
      ['a negative size', changed(report, { attachments: [{ ...file, size: -1 }] })],
      ['a problem code the page does not know', changed(report, { problems: [{ code: 'allFine', params: [], reason: '' }] })],
      [
        'more problems than MAIL_WIRE.problems',
        changed(report, { problems: Array.from({ length: MAIL_WIRE.problems + 1 }, () => ({ code: 'tooManyLinks', params: [], reason: '' })) }),
      ],
      ['a sender warning the page does not know', changed(report, { sender: { ...report.sender, warnings: ['trustMe'] } })],
      [
        'a verdict past MAIL_WIRE.text',
        changed(report, { sender: { ...report.sender, auth: { ...report.sender.auth, spf: 'x'.repeat(MAIL_WIRE.text + 1) } } }),
      ],
      ['remote content that is not a count', changed(report, { remoteContent: 1.5 })],
      ['a field more', changed(report, { html: '<script>' })],
    ];
    for (const [what, reading] of refusals) expect(REPLY.safeParse({ kind: 'mail', id: 2, reading }).success, what).toBe(false);
  });
});

describe('the decoder reads a mail where it runs', () => {
  function served(): { send(data: unknown): void; replies: Reply[] } {
    let handle: (data: unknown) => void = () => undefined;
    const replies: Reply[] = [];
    serveDecoder({
      post: (message) => {
        replies.push(message);
      },
      listen: (listener) => {
        handle = listener;
      },
    });
    return {
      send: (data) => {
        handle(data);
      },
      replies,
    };
  }

  async function answer(replies: Reply[], id: number): Promise<Reply> {
    await expect.poll(() => replies.some((reply) => 'id' in reply && reply.id === id)).toBe(true);
    const found = replies.find((reply) => 'id' in reply && reply.id === id);
    if (found === undefined) throw new Error('no answer');
    return found;
  }

  it('answers a mail with its reading, as linksInMail gives it, checked', async () => {
    const decoder = served();
    expect(decoder.replies).toEqual([{ kind: 'ready' }]);
    const name = '37-gateway-zoo.eml';
    decoder.send({ kind: 'mail', id: 7, mail: fixture(name).slice().buffer, unwrap: 'keep', name });
    const reply = await answer(decoder.replies, 7);
    expect(REPLY.safeParse(reply).success).toBe(true);
    expect(reply).toEqual({ kind: 'mail', id: 7, reading: await linksInMail(fixture(name), { name, unwrap: 'keep' }) });
  });

  it('answers what is not a mail with a failure, never a throw', async () => {
    const decoder = served();
    decoder.send({ kind: 'mail', id: 8, mail: new TextEncoder().encode('hello').slice().buffer, unwrap: 'unwrap', name: 'x.eml' });
    expect(await answer(decoder.replies, 8)).toMatchObject({ kind: 'mail', id: 8, reading: { ok: false, code: 'notMail' } });
  });
});
