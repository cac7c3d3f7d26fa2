/**
 * The walk chooses each file's reader by its content (first bytes), its name and type
 * after; SVG images and HTML pages are read with their scripts as text, never run; a
 * saved page or SVG given on its own reads as a mail holding it.
 */
import { describe, expect, it } from 'vitest';

import { linksInMail, SCRIPT_LIMITS, type MailReport } from '../../src/readers';
import { readSvg } from '../../src/readers/svg';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const b64 = (text: string): string => Buffer.from(text).toString('base64');

/** A mail whose one attachment is `content`, named and typed as given. */
function holding(content: string, name: string, type: string): Uint8Array {
  return encode(
    [
      'From: a@b.example',
      'Subject: Holds a file',
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain',
      '',
      'See attached.',
      '--b',
      `Content-Type: ${type}; name="${name}"`,
      `Content-Disposition: attachment; filename="${name}"`,
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from(content).toString('base64'),
      '--b--',
      '',
    ].join('\r\n'),
  );
}

async function read(bytes: Uint8Array, options?: Parameters<typeof linksInMail>[1]): Promise<MailReport> {
  const reading = await linksInMail(bytes, options);
  if (!reading.ok) throw new Error(`expected a report, got ${reading.code}: ${reading.reason}`);
  return reading;
}

const rows = (report: MailReport) => report.links.map((link) => [link.target ?? link.url, link.where, link.scriptOnly]);

const VOICE = `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="go()">
<a xlink:href="https://anchor.example/x"><text>Play</text></a>
<script><![CDATA[ function go() { location.href = atob('${b64('https://voice.evil.example/l?id=1')}'); } ]]></script>
<foreignObject><div xmlns="http://www.w3.org/1999/xhtml"><a href="https://foreign.example/">Listen</a><form action="https://collect.example/p"></form></div></foreignObject>
<a href="javascript:alert(1)"><text>x</text></a>
<set attributeName="href" to="https://animated.example/"/>
<image href="https://pixel.example/p.png"/>
</svg>`;

describe('readSvg', () => {
  it('reads anchors (href, xlink:href), scripts, handlers, foreignObject HTML and href animations; counts loads', () => {
    const found = readSvg(VOICE, 200);
    expect(found.links.map((link) => [link.url, link.shown, link.script])).toEqual([
      ['https://anchor.example/x', 'Play', false],
      ['https://voice.evil.example/l?id=1', null, true],
      ['https://foreign.example/', 'Listen', false],
      ['https://collect.example/p', null, false],
      ['javascript:alert(1)', 'x', false],
      ['https://animated.example/', null, false],
    ]);
    expect([...found.remote]).toEqual(['https://pixel.example/p.png']);
    expect(found.scriptCut).toBe(false);
  });

  it('survives deep nesting and says when scripts were cut', () => {
    const deep = `<svg>${'<g>'.repeat(100_000)}<a href="https://deep.example/">d</a>${'</g>'.repeat(100_000)}</svg>`;
    expect(readSvg(deep, 200).links.map((link) => link.url)).toEqual(['https://deep.example/']);
    const huge = `<svg><script>${' '.repeat(SCRIPT_LIMITS.characters)}location='https://late.example/'</script></svg>`;
    const cut = readSvg(huge, 200);
    expect(cut.links).toEqual([]);
    expect(cut.scriptCut).toBe(true);
  });
});

describe('the walk reads a file by what it is', () => {
  it('reads an SVG attachment, its script links marked scriptOnly, a javascript: href refused', async () => {
    const report = await read(holding(VOICE, 'VoiceMessage.svg', 'image/svg+xml'));
    expect(rows(report)).toEqual([
      ['https://anchor.example/x', ['attachment:VoiceMessage.svg'], false],
      ['https://voice.evil.example/l?id=1', ['attachment:VoiceMessage.svg'], true],
      ['https://foreign.example/', ['attachment:VoiceMessage.svg'], false],
      ['https://collect.example/p', ['attachment:VoiceMessage.svg'], false],
      ['javascript:alert(1)', ['attachment:VoiceMessage.svg'], false],
      ['https://animated.example/', ['attachment:VoiceMessage.svg'], false],
    ]);
    expect(report.links[4]?.refused?.code).toBe('urlScheme');
    expect(report.remoteContent).toBe(1);
  });

  it('reads an SVG by its content whatever its label, and by its name or type when the content says nothing', async () => {
    const svg = `<svg><a href="https://svg.example/"><text>t</text></a></svg>`;
    expect(rows(await read(holding(svg, 'scan.pdf', 'application/pdf')))).toEqual([['https://svg.example/', ['attachment:scan.pdf'], false]]);
    const plain = `hello <a href="https://named.example/">n</a>`;
    expect(rows(await read(holding(plain, 'x.svg', 'application/octet-stream')))).toEqual([['https://named.example/', ['attachment:x.svg'], false]]);
  });

  it('reads an HTML page named invoice.pdf as HTML, its concatenated script URL included', async () => {
    const page = `<!DOCTYPE html><html><body><script>var u = 'htt' + 'ps://' + atob('${b64('evil.example')}') + '/inv';location=u;</script></body></html>`;
    const report = await read(holding(page, 'invoice.pdf', 'application/pdf'));
    expect(rows(report)).toEqual([['https://evil.example/inv', ['attachment:invoice.pdf'], true]]);
    expect(report.attachments[0]).toMatchObject({ name: 'invoice.pdf', detected: 'text/html', disguised: true });
  });

  it('leaves a PDF named page.html unread (no reader for PDF yet), listed with its hash', async () => {
    const report = await read(holding('%PDF-1.4\n<a href="https://pdf.example/">x</a>', 'page.html', 'text/html'));
    expect(report.links).toEqual([]);
    expect(report.attachments[0]).toMatchObject({ detected: 'application/pdf', disguised: true });
  });

  it('merges a link of a script with the same link shown elsewhere: not scriptOnly', async () => {
    const page = `<a href="https://same.example/">s</a><script>location='https://same.example/'</script>`;
    expect(rows(await read(holding(page, 'p.html', 'text/html')))).toEqual([['https://same.example/', ['attachment:p.html'], false]]);
  });

  it('says when a page holds more script than is read', async () => {
    const page = `<script>${'x'.repeat(SCRIPT_LIMITS.characters + 10)}</script>`;
    const report = await read(holding(page, 'big.html', 'text/html'));
    expect(report.problems.map((problem) => [problem.code, problem.where])).toEqual([['scriptTooLong', 'attachment:big.html']]);
  });
});

describe('a saved page or SVG given on its own', () => {
  it('gives the rows of a mail holding it, told by content or name, or by format', async () => {
    const inMail = await read(holding(VOICE, 'VoiceMessage.svg', 'image/svg+xml'));
    const alone = await read(encode(VOICE), { name: 'VoiceMessage.svg' });
    expect(alone.format).toBe('svg');
    expect(alone.links).toEqual(inMail.links);
    expect(alone.attachments.map((file) => [file.name, file.detected, file.sha256])).toEqual(
      inMail.attachments.map((file) => [file.name, file.detected, file.sha256]),
    );
    expect([alone.from, alone.subject, alone.date, alone.reportedBy]).toEqual([null, null, null, null]);

    const page = 'Dear user, <a href="https://page.example/">open</a>';
    expect((await read(encode(page), { name: 'saved.htm' })).links.map((link) => link.where)).toEqual([['attachment:saved.htm']]);
    const forced = await read(encode(page), { format: 'html', name: 'saved.txt' });
    expect([forced.format, forced.links.map((link) => link.target)]).toEqual(['html', ['https://page.example/']]);
  });

  it('still reads a mail as a mail, and refuses what is neither', async () => {
    expect((await read(holding(VOICE, 'v.svg', 'image/svg+xml'), { name: 'report.eml' })).format).toBe('eml');
    expect(await linksInMail(encode('just some words'), { name: 'notes.txt' })).toMatchObject({ ok: false, code: 'notMail' });
  });
});
