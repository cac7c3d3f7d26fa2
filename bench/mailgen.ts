/**
 * The generated mail of figure 9 (bench/mail.ts): a seeded, realistic reported mail of a
 * given size holding a given number of links, as an Outlook client writes one (a
 * quoted-printable HTML body with its text version, base64 attachments making up the rest),
 * with the targets it holds and what it is made of.
 */
import { prng } from './textgen';
export interface MailStats {
  readonly bytes: number;
  readonly anchors: number;
  /** Distinct targets written: the anchors' (one each), and the brands' URLs that lying anchors show in the text version. */
  readonly targets: number;
  readonly safeLinks: number;
  /** Anchors whose text names a domain that is not the target's. */
  readonly lying: number;
  /** Anchors shown as an image (its alt, or nothing). */
  readonly images: number;
  /** Defanged mentions of a target in the HTML's text (the same targets as anchors). */
  readonly defanged: number;
  readonly htmlBytes: number;
  readonly textBytes: number;
  readonly attachmentBytes: number;
}

export interface GeneratedMail {
  readonly bytes: Uint8Array;
  /** The distinct targets, as the URL parser writes them. */
  readonly targets: ReadonlySet<string>;
  readonly stats: MailStats;
}

const WORDS = (
  'the a of to and in that is for on with as your this it be are or please have has not review account payment invoice ' +
  'remittance document shared secure message team update statement order delivery confirm details access portal vendor ' +
  'finance policy quarterly report schedule meeting request approval pending overdue reminder customer service notice ' +
  'attached below link file folder signature required action today week month download view open sign verify'
).split(' ');
const CALLS = ['Review document', 'View invoice', 'Click here', 'Sign in', 'Open in SharePoint', 'Download PDF', 'Verify your account', 'Unsubscribe',
  'Read more', 'Track your parcel', 'Approve payment', 'View message', 'Update details', 'Open', 'here', 'Manage preferences']; // prettier-ignore
const TLDS = ['com', 'com', 'com', 'net', 'org', 'io', 'co.uk', 'de', 'xyz', 'top', 'info', 'com.au', 'online', 'app', 'fr', 'biz'];
/** What a lying anchor shows: a brand's address over someone else's target. */
const BRANDS = ['https://www.paypal.com/signin', 'login.microsoftonline.com', 'www.chase.com/verify', 'https://account.apple.com/',
  'www.amazon.co.uk', 'https://accounts.google.com/ServiceLogin', 'www.dhl.de/tracking', 'docusign.net', 'https://www.wellsfargo.com',
  'onedrive.live.com']; // prettier-ignore
const PATHS = ['login', 'secure', 'account', 'verify', 'update', 'invoice', 'download', 'docs', 'files', 'portal', 'auth', 'share', 'track', 'pay'];
const PROSE_MARKS = ['\u2019', '\u2013', '\u201c', '\u201d', '\u20ac', '\u00e9'];

/** Bytes from the generator, four at a time: attachment contents that do not compress. */
function noise(random: () => number, length: number): Uint8Array {
  const out = new Uint8Array(length);
  const view = new DataView(out.buffer);
  let i = 0;
  for (; i + 4 <= length; i += 4) view.setUint32(i, Math.floor(random() * 4294967296));
  for (; i < length; i++) out[i] = Math.floor(random() * 256);
  return out;
}

/** Base64 in lines of 76 characters, as mail clients write attachments. */
function base64Lines(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  const lines: string[] = [];
  for (let i = 0; i < text.length; i += 76) lines.push(text.slice(i, i + 76));
  return lines.join('\r\n');
}

/** Quoted-printable (RFC 2045) of UTF-8 text: lines of at most 76 characters, soft breaks `=`. */
function quotedPrintable(text: string): string {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const bytes = Buffer.from(line, 'utf8');
    let current = '';
    for (let i = 0; i < bytes.length; i++) {
      const byte = bytes[i] ?? 0;
      const last = i === bytes.length - 1;
      const literal = (byte >= 33 && byte <= 126 && byte !== 61) || ((byte === 32 || byte === 9) && !last);
      const piece = literal ? String.fromCharCode(byte) : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
      if (current.length + piece.length > 75) {
        out.push(`${current}=`);
        current = '';
      }
      current += piece;
    }
    out.push(current);
  }
  return out.join('\r\n');
}

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

const OUTLOOK_HEAD = `<html xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word" xmlns:m="http://schemas.microsoft.com/office/2004/12/omml" xmlns="http://www.w3.org/TR/REC-html40">
<head>
<meta http-equiv="Content-Type" content="text/html; charset=utf-8">
<meta name="Generator" content="Microsoft Word 15 (filtered medium)">
<!--[if !mso]><style>v\\:* {behavior:url(#default#VML);}
o\\:* {behavior:url(#default#VML);}
w\\:* {behavior:url(#default#VML);}
.shape {behavior:url(#default#VML);}
</style><![endif]--><style><!--
/* Font Definitions */
@font-face
	{font-family:"Cambria Math";
	panose-1:2 4 5 3 5 4 6 3 2 4;}
@font-face
	{font-family:Calibri;
	panose-1:2 15 5 2 2 2 4 3 2 4;}
@font-face
	{font-family:"Segoe UI";
	panose-1:2 11 5 2 4 2 4 2 2 3;}
/* Style Definitions */
p.MsoNormal, li.MsoNormal, div.MsoNormal
	{margin:0in;
	font-size:11.0pt;
	font-family:"Calibri",sans-serif;}
a:link, span.MsoHyperlink
	{mso-style-priority:99;
	color:#0563C1;
	text-decoration:underline;}
span.EmailStyle17
	{mso-style-type:personal-compose;
	font-family:"Calibri",sans-serif;
	color:windowtext;}
.MsoChpDefault
	{mso-style-type:export-only;
	font-family:"Calibri",sans-serif;}
@page WordSection1
	{size:8.5in 11.0in;
	margin:1.0in 1.0in 1.0in 1.0in;}
div.WordSection1
	{page:WordSection1;}
--></style><!--[if gte mso 9]><xml>
<o:shapedefaults v:ext="edit" spidmax="1026" />
</xml><![endif]--><!--[if gte mso 9]><xml>
<o:shapelayout v:ext="edit">
<o:idmap v:ext="edit" data="1" />
</o:shapelayout></xml><![endif]-->
</head>
<body lang="EN-US" link="#0563C1" vlink="#954F72" style="word-wrap:break-word">
<div class="WordSection1">
`;

/**
 * A reported mail as Outlook sends it, about `size` bytes, with `links` anchors to as many
 * distinct targets: multipart/mixed holding a multipart/alternative (the text version and a
 * quoted-printable HTML body in Word's markup) and two base64 attachments, a PDF-like file
 * and a PNG-like image, that make up the rest of the size. The anchors show prose, their own
 * URL or host, a brand's address over another target (lying), or an image; about a third
 * are Safe Links; one in eight is mentioned again, defanged, in the HTML's text. Same seed,
 * same bytes.
 */
export function generateMail(options: { readonly size: number; readonly links: number; readonly seed: number }): GeneratedMail {
  const random = prng(options.seed);
  const int = (n: number): number => Math.floor(random() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  const hex = (n: number): string => Array.from({ length: n }, () => '0123456789abcdef'[int(16)]).join('');
  const words = (n: number): string => {
    const out = Array.from({ length: n }, () => pick(WORDS));
    if (random() < 0.3) {
      const at = int(n);
      out[at] = `${out[at] ?? ''}${pick(PROSE_MARKS)}`;
    }
    return out.join(' ');
  };
  const sentence = (n: number): string => {
    const text = words(n);
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  };

  const label = (): string => `${pick(PATHS)}${random() < 0.5 ? '-' : ''}${pick(WORDS).replace(/[^a-z]/g, '') || 'x'}${int(1000)}`;
  const hosts = Array.from({ length: 600 }, () => `${random() < 0.4 ? `${pick(['www', 'secure', 'mail', 'portal', 'cdn'])}.` : ''}${label()}.${pick(TLDS)}`);
  const user = 'jordan.lee%40corp.example';

  let safeLinks = 0;
  let lying = 0;
  let images = 0;
  let defanged = 0;
  const targets = new Set<string>();
  const html: string[] = [OUTLOOK_HEAD];
  const text: string[] = [];

  for (let i = 0; i < options.links; i++) {
    if (i % 20 === 0) {
      const title = sentence(3 + int(4)).slice(0, -1);
      html.push(
        `<p class="MsoNormal"><o:p>&nbsp;</o:p></p>\n<p class="MsoNormal"><b><span style="font-size:13.0pt;font-family:&quot;Segoe UI&quot;,sans-serif;color:#1F3864">${escapeHtml(title)}<o:p></o:p></span></b></p>\n`,
      );
      text.push('', title, '');
    }
    const host = pick(hosts);
    const query = random() < 0.5 ? `?id=${int(1e6)}&utm_source=mail&utm_campaign=${pick(PATHS)}${int(100)}` : random() < 0.5 ? `?e=${hex(8)}` : '';
    const target = `https://${host}/${pick(PATHS)}/${pick(PATHS)}/${hex(6)}${i}${random() < 0.2 ? '.php' : ''}${query}`;
    targets.add(new URL(target).href);
    let href = target;
    if (random() < 0.35) {
      safeLinks++;
      const sdata = Buffer.from(noise(random, 32)).toString('base64');
      href =
        `https://${pick(['nam12', 'nam04', 'eur02', 'eur05', 'apc01'])}.safelinks.protection.outlook.com/?url=${encodeURIComponent(target)}` +
        `&data=05%7C02%7C${user}%7C${hex(32)}%7C${hex(32)}%7C0%7C0%7C638${String(int(1e9)).padStart(9, '0')}123456789%7CUnknown%7C` +
        `TWFpbGZsb3d8eyJFbXB0eU1hcGkiOnRydWUsIlYiOiIwLjAuMDAwMCIsIlAiOiJXaW4zMiIsIkFOIjoiTWFpbCIsIldUIjoyfQ%3D%3D%7C0%7C%7C%7C` +
        `&sdata=${encodeURIComponent(sdata)}&reserved=0`;
    }
    const kind = random();
    let inner: string;
    let plainShown: string;
    if (kind < 0.4) {
      plainShown = random() < 0.7 ? pick(CALLS) : sentence(4 + int(12)).slice(0, -1);
      inner = `<span style="color:#0563C1">${escapeHtml(plainShown)}</span>`;
    } else if (kind < 0.6) {
      plainShown = target;
      inner = escapeHtml(target);
    } else if (kind < 0.72) {
      plainShown = host;
      inner = escapeHtml(host);
    } else if (kind < 0.87) {
      lying++;
      plainShown = pick(BRANDS);
      inner = escapeHtml(plainShown);
      // The text version writes it as "shown<href>": a brand's URL there is a link of that text.
      if (plainShown.startsWith('https://')) targets.add(new URL(plainShown).href);
    } else {
      images++;
      const alt = random() < 0.7 ? pick(CALLS) : '';
      plainShown = `[cid:image001.png@01DAF3B2.5C1D7E40]`;
      inner = `<span style="text-decoration:none"><img border="0" width="160" height="40" style="width:1.6666in;height:.4166in" id="Picture_x0020_${i}" src="cid:image001.png@01DAF3B2.5C1D7E40"${alt === '' ? '' : ` alt="${escapeHtml(alt)}"`}></span>`;
    }
    const before = random() < 0.7 ? `${sentence(6 + int(20))} ` : '';
    const after = random() < 0.3 ? ` ${sentence(4 + int(10))}` : '';
    const safeAttributes = href === target ? '' : ` originalsrc="${escapeHtml(target)}" shash="${Buffer.from(noise(random, 24)).toString('base64')}"`;
    html.push(
      `<p class="MsoNormal"><span style="font-size:10.5pt;font-family:&quot;Segoe UI&quot;,sans-serif;color:#242424">${escapeHtml(before)}<a href="${escapeHtml(href)}"${safeAttributes}>${inner}</a>${escapeHtml(after)}<o:p></o:p></span></p>\n`,
    );
    text.push(`${before}${plainShown}<${href}>${after}`);
    if (i % 8 === 3) {
      defanged++;
      const [scheme, rest] = [target.slice(0, 8), target.slice(8)];
      const slash = rest.indexOf('/');
      const dotted = pick(['[.]', '[.]', '(.)', '[dot]']);
      const fanged = `${pick(['hxxps://', 'hxxps[:]//', 'hXXps://', scheme])}${rest.slice(0, slash).replaceAll('.', dotted)}${rest.slice(slash)}`;
      html.push(
        `<p class="MsoNormal"><i><span style="font-size:9.0pt;color:#595959">(If the button does not open, copy ${escapeHtml(fanged)} into your browser.)<o:p></o:p></span></i></p>\n`,
      );
      text.push(`(If the button does not open, copy ${fanged} into your browser.)`);
    }
  }
  html.push('<p class="MsoNormal"><o:p>&nbsp;</o:p></p>\n</div>\n</body>\n</html>\n');

  const mixed = `_004_DM6PR02MB4012${hex(24).toUpperCase()}namp_`;
  const alternative = `_000_DM6PR02MB4012${hex(24).toUpperCase()}namp_`;
  const htmlPart = quotedPrintable(html.join(''));
  const textPart = quotedPrintable(text.join('\n'));
  const head = [
    'Received: from DM6PR02MB4012.namprd02.prod.outlook.com (2603:10b6:5:1f4::21) by',
    ' SN6PR02MB5678.namprd02.prod.outlook.com with HTTPS; Tue, 12 Mar 2024 14:02:55 +0000',
    'Received: from relay.example.net (192.0.2.25) by mx1.corp.example with ESMTPS id 4Tv9Qk1Z2xz;',
    ' Tue, 12 Mar 2024 14:02:51 +0000',
    'Authentication-Results: mx1.corp.example; spf=softfail smtp.mailfrom=relay.example.net;',
    ' dkim=none; dmarc=fail action=quarantine header.from=remittance-notify.example',
    'From: Accounts Payable <ap@remittance-notify.example>',
    'To: Jordan Lee <jordan.lee@corp.example>',
    'Subject: =?utf-8?Q?Remittance_advice_=E2=80=93_Q3_payments_(2=2C000_items)?=',
    'Thread-Topic: Remittance advice - Q3 payments',
    'Thread-Index: AQHadL1m9v0T2kQ8RkWm1zP3yN5c7A==',
    'Date: Tue, 12 Mar 2024 14:02:51 +0000',
    `Message-ID: <DM6PR02MB4012${hex(16).toUpperCase()}@DM6PR02MB4012.namprd02.prod.outlook.com>`,
    'Accept-Language: en-US',
    'Content-Language: en-US',
    'X-MS-Has-Attach: yes',
    'X-MS-Exchange-Organization-SCL: 1',
    `X-MS-Exchange-Organization-Network-Message-Id: ${hex(8)}-${hex(4)}-${hex(4)}-${hex(4)}-${hex(12)}`,
    `Content-Type: multipart/mixed;\r\n boundary="${mixed}"`,
    'MIME-Version: 1.0',
    '',
  ].join('\r\n');
  const bodies = [
    `${head}\r\n--${mixed}\r\nContent-Type: multipart/alternative;\r\n boundary="${alternative}"\r\n\r\n`,
    `--${alternative}\r\nContent-Type: text/plain; charset="utf-8"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${textPart}\r\n\r\n`,
    `--${alternative}\r\nContent-Type: text/html; charset="utf-8"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n${htmlPart}\r\n\r\n`,
    `--${alternative}--\r\n\r\n`,
  ].join('');

  // The image: a PNG's signature and chunks around 1.2 MB of noise; the PDF fills the rest.
  const png = Buffer.concat([
    Buffer.from('\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\x05\x00\0\0\x03\x20\x08\x06\0\0\0\0\0\0\0', 'latin1'),
    noise(random, 1_200_000),
    Buffer.from('\0\0\0\0IEND\xae\x42\x60\x82', 'latin1'),
  ]);
  const part = (type: string, name: string, bytes: Uint8Array, inline: boolean, base64: string): string =>
    `--${mixed}\r\nContent-Type: ${type}; name="${name}"\r\nContent-Description: ${name}\r\n` +
    `Content-Disposition: ${inline ? 'inline' : 'attachment'}; filename="${name}"; size=${bytes.length};\r\n` +
    ` creation-date="Tue, 12 Mar 2024 14:01:12 GMT"; modification-date="Tue, 12 Mar 2024 14:01:12 GMT"\r\n` +
    `${inline ? 'Content-ID: <image001.png@01DAF3B2.5C1D7E40>\r\n' : ''}Content-Transfer-Encoding: base64\r\n\r\n${base64}\r\n\r\n`;
  const imagePart = part('image/png', 'image001.png', png, true, base64Lines(png));
  const end = `--${mixed}--\r\n`;
  const pdfName = 'Remittance_Advice_2024-Q3.pdf';
  const fixed = bodies.length + imagePart.length + end.length + part('application/pdf', pdfName, new Uint8Array(0), false, '').length + 10;
  // 57 bytes are 76 base64 characters and a line break: 78 bytes of mail.
  const pdfLength = Math.max(1000, Math.floor((options.size - fixed) / 78) * 57);
  const pdfHead = Buffer.from(
    '%PDF-1.7\r\n%\xe2\xe3\xcf\xd3\r\n1 0 obj\r\n<< /Type /Catalog /Pages 2 0 R >>\r\nendobj\r\n2 0 obj\r\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\r\nendobj\r\n' +
      `3 0 obj\r\n<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>\r\nendobj\r\n4 0 obj\r\n<< /Length ${pdfLength} /Filter /FlateDecode >>\r\nstream\r\n`,
    'latin1',
  );
  const pdfTail = Buffer.from('\r\nendstream\r\nendobj\r\ntrailer\r\n<< /Root 1 0 R >>\r\n%%EOF\r\n', 'latin1');
  const pdf = Buffer.concat([pdfHead, noise(random, pdfLength - pdfHead.length - pdfTail.length), pdfTail]);
  const pdfPart = part('application/pdf', pdfName, pdf, false, base64Lines(pdf));

  const mail = Buffer.from(`${bodies}${pdfPart}${imagePart}${end}`, 'latin1');
  return {
    bytes: new Uint8Array(mail.buffer, mail.byteOffset, mail.byteLength),
    targets,
    stats: {
      bytes: mail.byteLength,
      anchors: options.links,
      targets: targets.size,
      safeLinks,
      lying,
      images,
      defanged,
      htmlBytes: htmlPart.length,
      textBytes: textPart.length,
      attachmentBytes: pdfPart.length + imagePart.length,
    },
  };
}
