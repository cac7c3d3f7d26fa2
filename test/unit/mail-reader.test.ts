/**
 * linksInMail, rule by rule: where links come from, what each row says, and how a hostile
 * or broken mail is answered (a clear failure or problem, never a throw or a hang). The
 * corpus of generated mails is test/unit/mail-corpus.test.ts.
 */
import { describe, expect, it } from 'vitest';

import { linksInMail, MAIL_LIMITS, type MailReading, type MailReport } from '../../src/readers';
import { hostsNamed, isMismatch, registrableDomain } from '../../src/readers/hosts';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A mail with these headers (From and Subject by default) and a body of one type. */
function mail(body: string, type = 'text/html; charset=utf-8', headers: readonly string[] = []): Uint8Array {
  return encode([`From: "Sender" <sender@mail.example>`, 'Subject: Test', ...headers, `Content-Type: ${type}`, '', body].join('\r\n'));
}

async function read(bytes: Uint8Array, options?: Parameters<typeof linksInMail>[1]): Promise<MailReport> {
  const reading = await linksInMail(bytes, options);
  if (!reading.ok) throw new Error(`expected a mail, got ${reading.code}: ${reading.reason}`);
  return reading;
}

async function targets(html: string): Promise<(string | null)[]> {
  return (await read(mail(html))).links.map((link) => link.target);
}

/** A multipart body of these parts, each given with its own headers. */
function multipart(boundary: string, parts: readonly string[]): string {
  return `${parts.map((part) => `--${boundary}\r\n${part}`).join('\r\n')}\r\n--${boundary}--\r\n`;
}

describe('the links of an HTML body', () => {
  it('come from anchors, areas, forms, formaction, refresh and VML, in document order', async () => {
    const html = [
      '<meta http-equiv="Refresh" content="0; URL=\'https://refresh.example/r\'">',
      '<a href="https://a.example/1">one</a>',
      '<map><area href="https://area.example/2" alt="map"></map>',
      '<form action="https://form.example/post"><button formaction="https://button.example/go">Go</button></form>',
      '<!--[if mso]><v:roundrect href="https://vml.example/btn"><center>Pay now</center></v:roundrect><![endif]-->',
    ].join('');
    expect(await targets(html)).toEqual([
      'https://refresh.example/r',
      'https://a.example/1',
      'https://area.example/2',
      'https://form.example/post',
      'https://button.example/go',
      'https://vml.example/btn',
    ]);
  });

  it('find bare URLs in the visible text, defanged or split across inline elements, but not in the head or anchors; scripts read as scripts', async () => {
    const html =
      '<head><title>https://title.example/</title><style>a{}</style></head><body>' +
      '<p>Go to hxxps://evil<span>[.]</span>example/drop then</p><script>var u="https://script.example/"</script>' +
      '<a href="https://real.example/">https://shown.example/</a></body>';
    const report = await read(mail(html));
    expect(report.links.map((link) => [link.target, link.scriptOnly])).toEqual([
      ['https://evil.example/drop', false],
      ['https://script.example/', true],
      ['https://real.example/', false],
    ]);
  });

  it('apply <base href> to relative links and decode entities in hrefs', async () => {
    const report = await read(mail('<base href="https://base.example/dir/"><a href="page?a=1&amp;b=2&#x26;c">rel</a><a href="/root">root</a>'));
    expect(report.links.map((link) => [link.url, link.target])).toEqual([
      ['https://base.example/dir/page?a=1&b=2&c', 'https://base.example/dir/page?a=1&b=2&c'],
      ['https://base.example/root', 'https://base.example/root'],
    ]);
  });

  it('leave out mailto:, tel: and in-page links, and list javascript:, data: and file: ones as refused', async () => {
    const report = await read(
      mail(
        '<a href="mailto:a@b.example">m</a><a href=" tel:+1">t</a><a href="#top">top</a><a href="JavaScript:alert(1)">j</a><a href="data:text/html,x">d</a><a href="file:///etc/passwd">f</a>',
      ),
    );
    expect(report.links.map((link) => [link.url, link.target, link.refused?.code])).toEqual([
      ['JavaScript:alert(1)', null, 'urlScheme'],
      ['data:text/html,x', null, 'urlScheme'],
      ['file:///etc/passwd', null, 'urlScheme'],
    ]);
  });

  it('give the shown text collapsed and cut to 200 characters, else an image alt, else null', async () => {
    const long = 'word '.repeat(100);
    const report = await read(
      mail(
        `<a href="https://a.example/">  Review\n\t  <b>invoice</b> </a><a href="https://b.example/"><img alt="Log in" src="cid:x"></a><a href="https://c.example/">${long}</a>`,
      ),
    );
    expect(report.links.map((link) => link.shown)).toEqual(['Review invoice', 'Log in', long.trim().slice(0, MAIL_LIMITS.shownLength)]);
  });

  it('list a target once with every place, keeping the lying text when one of its anchors lies', async () => {
    const boundary = 'alt';
    const body = multipart(boundary, [
      'Content-Type: text/html\r\n\r\n<a href="https://x.example/a">Click</a> <a href="https://x.example/a">www.paypal.com</a>',
      'Content-Type: text/plain\r\n\r\nClick <https://x.example/a>',
    ]);
    const report = await read(mail(body, `multipart/alternative; boundary="${boundary}"`));
    expect(report.links).toEqual([
      {
        url: 'https://x.example/a',
        target: 'https://x.example/a',
        shown: 'www.paypal.com',
        mismatch: true,
        where: ['html', 'text'],
        scriptOnly: false,
        wrappedBy: [],
        opaque: false,
      },
    ]);
  });

  it('unwrap gateway links to their real target, and keep them with unwrap: keep', async () => {
    const safe = 'https://nam12.safelinks.protection.outlook.com/?url=https%3A%2F%2Fevil.example%2Flogin&amp;data=05&amp;reserved=0';
    const html = `<a href="${safe}">www.microsoft.com</a><a href="https://protect-eu.mimecast.com/s/AbCdEf?domain=evil.example">m</a>`;
    const unwrapped = await read(mail(html));
    expect(unwrapped.links.map((link) => [link.target, link.wrappedBy, link.opaque, link.mismatch])).toEqual([
      ['https://evil.example/login', ['safelinks'], false, true],
      ['https://protect-eu.mimecast.com/s/AbCdEf?domain=evil.example', ['mimecast'], true, false],
    ]);
    const kept = await read(mail(html), { unwrap: 'keep' });
    expect(kept.links[0]?.target).toBe(safe.replaceAll('&amp;', '&'));
  });

  it('count distinct remote resources and list none of them', async () => {
    const html = [
      '<link rel="stylesheet" href="https://cdn.example/a.css"><link rel="prefetch" href="//pre.example/x">',
      '<style>@import "https://cdn.example/b.css"; body{background:url( "https://img.example/bg.png" )} @font-face{src:url(https://font.example/f.woff)}</style>',
      '<img src="https://track.example/p.gif" srcset="https://img.example/1x.png 1x, https://img.example/2x.png 2x"><img src="cid:logo"><img src="data:image/png;base64,AA==">',
      '<table background="https://img.example/t.png"><tr><td style="background-image:url(\'https://img.example/td.png\')">x</td></tr></table>',
      '<iframe src="https://frame.example/"></iframe><video poster="https://img.example/poster.png"></video><img src="https://track.example/p.gif">',
    ].join('');
    const report = await read(mail(html));
    expect(report.remoteContent).toBe(12);
    expect(report.links).toEqual([]);
  });

  it('walks a document nested 100,000 deep without recursion', async () => {
    const deep = `${'<div>'.repeat(100_000)}<a href="https://deep.example/">deep</a>${'</div>'.repeat(100_000)}`;
    expect(await targets(deep)).toEqual(['https://deep.example/']);
  });
});

describe('the text body, attachments and attached messages', () => {
  const forwarded = ['From: boss@corp.example', 'Subject: Fwd: Invoice', 'Content-Type: text/plain', '', 'Pay at hxxps://pay[.]evil.example/now'].join('\r\n');
  const page = '<html><body><form action="https://collect.evil.example/post"><input name="pw"></form></body></html>';
  const body = multipart('mix', [
    'Content-Type: text/plain\r\n\r\nSee the attachments. https://plain.example/x',
    `Content-Type: text/html\r\nContent-Disposition: attachment; filename="invoice.html"\r\n\r\n${page}`,
    `Content-Type: message/rfc822\r\n\r\n${forwarded}`,
    'Content-Type: image/png\r\nContent-Disposition: attachment; filename="a.png"\r\nContent-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=',
  ]);

  it('name each place: text, attachment:<file name>, message:<subject>', async () => {
    const report = await read(mail(body, 'multipart/mixed; boundary="mix"'));
    expect(report.links.map((link) => [link.target, link.where])).toEqual([
      ['https://plain.example/x', ['text']],
      ['https://collect.evil.example/post', ['attachment:invoice.html']],
      ['https://pay.evil.example/now', ['message:Fwd: Invoice']],
    ]);
  });

  it('read attached messages five deep and say so of the deeper ones', async () => {
    let inner = ['Subject: level 7', 'Content-Type: text/plain', '', 'https://level7.example/'].join('\r\n');
    for (let level = 6; level >= 1; level--) {
      inner = [
        `Subject: level ${level}`,
        `Content-Type: multipart/mixed; boundary="l${level}"`,
        '',
        multipart(`l${level}`, [`Content-Type: text/plain\r\n\r\nhttps://level${level}.example/`, `Content-Type: message/rfc822\r\n\r\n${inner}`]),
      ].join('\r\n');
    }
    const report = await read(mail(multipart('top', [`Content-Type: message/rfc822\r\n\r\n${inner}`]), 'multipart/mixed; boundary="top"'));
    expect(report.links.map((link) => link.target)).toEqual([1, 2, 3, 4, 5].map((level) => `https://level${level}.example/`));
    expect(report.problems).toEqual([expect.objectContaining({ code: 'messageTooDeep', params: ['5'] })]);
  });
});

describe('the mail itself', () => {
  it('gives From, Subject and Date, decoded', async () => {
    const report = await read(
      encode(
        [
          'From: =?UTF-8?B?UGF5UGFsIFNlcnZpY2U=?= <service@paypa1.example>',
          'Subject: =?ISO-8859-1?Q?Re=E7u?=',
          'Date: Tue, 24 Nov 2026 09:30:00 +0100',
          '',
          'hi',
        ].join('\r\n'),
      ),
    );
    expect([report.format, report.from, report.subject, report.date]).toEqual([
      'eml',
      'PayPal Service <service@paypa1.example>',
      'Reçu',
      '2026-11-24T08:30:00.000Z',
    ]);
  });

  it.each<[string, Uint8Array, Partial<MailReading>]>([
    ['an empty file', new Uint8Array(), { ok: false, code: 'mailEmpty' }],
    ['a file over the limit', new Uint8Array(MAIL_LIMITS.bytes + 1).fill(0x61), { ok: false, code: 'mailTooLarge', params: ['25'] }],
    ['a program', Uint8Array.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff]), { ok: false, code: 'notMail' }],
    ['prose', encode('Dear team, nothing to see here.\n'), { ok: false, code: 'notMail' }],
  ])('refuses %s with a code and words', async (_, bytes, expected) => {
    const reading = await linksInMail(bytes);
    expect(reading).toMatchObject(expected);
    expect(reading.ok ? '' : reading.reason).not.toBe('');
  });

  it('reads an image given on its own as the one file of a mail: listed, its codes read by the decoder given', async () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    const reading = await linksInMail(png, { name: 'scan.png' });
    expect(reading).toMatchObject({ ok: true, format: 'png', links: [] });
    expect(reading.ok ? reading.attachments.map((file) => [file.name, file.detected]) : []).toEqual([['scan.png', 'image/png']]);
  });

  it('refuses a .msg that is not a compound file when told it is a .msg, and a damaged compound file', async () => {
    expect(await linksInMail(mail('<a href="https://a.example/">a</a>'), { format: 'msg' })).toMatchObject({ ok: false, code: 'notCompoundFile' });
    const damaged = new Uint8Array(4096);
    damaged.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const reading = await linksInMail(damaged);
    expect(reading.ok).toBe(false);
    expect(reading).toMatchObject({ ok: false, code: 'notMail' });
  });

  it('refuses MIME nested past the limit, naming it', async () => {
    let body = 'Content-Type: text/plain\r\n\r\nhttps://deep.example/';
    for (let level = 0; level < MAIL_LIMITS.mimeDepth + 5; level++)
      body = `Content-Type: multipart/mixed; boundary="b${level}"\r\n\r\n${multipart(`b${level}`, [body])}`;
    const reading = await linksInMail(encode(`From: a@b.example\r\nSubject: bomb\r\n${body}`));
    expect(reading).toMatchObject({ ok: false, code: 'mailUnreadable' });
  });

  it('reads wrong and unknown charsets, invalid UTF-8 and broken encodings without losing the links', async () => {
    const cases = [
      mail('<a href="https://a.example/">\u00e9t\u00e9</a>', 'text/html; charset=x-unknown-charset'),
      mail('<a href="https://a.example/">caf\xe9</a>', 'text/html; charset=iso-8859-1'),
      encode(
        'From: a@b.example\r\nSubject: s\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\nPGEgaHJlZj0iaHR0cHM6Ly9hLmV4YW1wbGUvIj5hPC9hPg==!!!garbage***\r\n',
      ),
      encode(
        'From: a@b.example\r\nSubject: s\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n<a href=3D"https://a.exa=\r\nmple/">a</a> =ZZ =\r\n',
      ),
    ];
    const invalid = mail('<a href="https://a.example/">x</a>', 'text/html; charset=utf-8');
    const bytes = new Uint8Array([...invalid, 0xff, 0xfe, 0xc3]);
    for (const bytesOf of [...cases, bytes]) expect((await read(bytesOf)).links[0]?.target).toBe('https://a.example/');
  });

  it('reads a truncated mail and one whose boundaries are missing, keeping what is there', async () => {
    const whole = mail(
      multipart('t', [
        'Content-Type: text/html\r\n\r\n<a href="https://first.example/">first</a>',
        'Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\naHR0cHM6Ly9zZWNvbmQuZXhhbXBsZS8=',
      ]),
      'multipart/mixed; boundary="t"',
    );
    const cut = whole.subarray(0, whole.length - 30);
    expect((await read(cut)).links[0]?.target).toBe('https://first.example/');
    const noBoundary = encode(
      'From: a@b.example\r\nSubject: s\r\nContent-Type: multipart/mixed\r\n\r\n--x\r\nContent-Type: text/html\r\n\r\n<a href="https://orphan.example/">o</a>\r\n',
    );
    const unseen = encode('From: a@b.example\r\nSubject: s\r\nContent-Type: multipart/mixed; boundary="never"\r\n\r\nhttps://body.example/\r\n');
    for (const bytes of [noBoundary, unseen, whole.subarray(0, 40)]) expect((await linksInMail(bytes)).ok).toBe(true);
  });

  it('lists 10,000 links and 2,000 parts', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `<a href="https://l${i}.example/">${i}</a>`).join('');
    expect((await read(mail(many))).links).toHaveLength(10_000);
    const parts = Array.from({ length: 2000 }, (_, i) => `Content-Type: text/plain\r\n\r\nhttps://p${i}.example/`);
    const report = await read(mail(multipart('p', parts), 'multipart/mixed; boundary="p"'));
    expect(report.links.length).toBeGreaterThanOrEqual(1);
  });

  it('keeps injected header lines out of the subject and the place names', async () => {
    const injected = [
      'From: a@b.example',
      'Subject: =?UTF-8?Q?Hi=0D=0ABcc:_victim@corp.example?=',
      'Content-Type: multipart/mixed; boundary="m"',
      '',
      multipart('m', ['Content-Type: message/rfc822\r\n\r\nSubject: =?UTF-8?Q?a=0D=0Ab?=\r\n\r\nhttps://x.example/']),
    ].join('\r\n');
    const report = await read(encode(injected));
    expect(report.links[0]?.where).toEqual(['message:a b']);
  });
});

describe('whether shown text lies', () => {
  it.each<[string | null, string, boolean]>([
    ['www.paypal.com', 'paypa1-login.example', true],
    ['https://www.paypal.com/signin', 'paypal.com', false],
    ['login.acme.example', 'acme.example', false],
    ['Sign in to paypal.com/signin now', 'evil.example', true],
    ['hxxps://paypal[.]com', 'evil.example', true],
    ['Review invoice', 'evil.example', false],
    ['invoice.pdf', 'evil.example', false],
    ['a.b.co.uk', 'c.co.uk', true],
    ['192.0.2.1', '192.0.2.2', true],
    [null, 'evil.example', false],
  ])('%s over %s: %s', (shown, host, expected) => {
    expect(isMismatch(shown, host)).toBe(expected);
  });

  it('reads the hosts a text names, IDN as the URL parser writes them', () => {
    expect(hostsNamed('Visit paypаl.com (Cyrillic a) or https://x.example/')).toEqual(['x.example', 'xn--paypl-7ve.com']);
    expect(registrableDomain('a.b.co.uk')).toBe('b.co.uk');
  });
});
