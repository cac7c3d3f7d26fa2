/**
 * The sender's story (src/readers/sender.ts): the corpus of test/fixtures/mail/sender/,
 * written by Python's email package (make-sender.py) with the header forms real receivers
 * write, each mail's story stated by hand beside it; then each reading on its own.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { linksInMail } from '../../src/readers';
import { enteringHop, readAuthResults, readReceived, senderStory, withoutComments } from '../../src/readers/sender';
import { headerList, type Letter } from '../../src/readers/letter';

const FOLDER = resolve(import.meta.dirname, '../fixtures/mail/sender');
const { mails } = JSON.parse(readFileSync(join(FOLDER, 'expected.json'), 'utf8')) as { mails: Record<string, Record<string, unknown>> };

function letterOf(headers: string, from: string | null = null): Letter {
  return { headers: headerList(headers), from, subject: null, date: null, html: null, text: null, attachments: [] };
}

describe('the sender corpus', () => {
  it.each(Object.entries(mails))('%s', async (file, story) => {
    const { reportedBy = null, ...expected } = story;

    const actual = await linksInMail(readFileSync(join(FOLDER, file)));

    expect(actual.ok).toBe(true);
    if (!actual.ok) return;
    expect(actual.sender).toEqual(expected);
    expect(actual.reportedBy).toEqual(reportedBy);
  });
});

describe('readAuthResults', () => {
  it.each([
    [
      'RFC 8601 with a version',
      'mx.example.org 1; spf=pass smtp.mailfrom=a.example; dkim=pass header.d=a.example; dmarc=pass',
      'mx.example.org',
      ['pass', 'pass', 'pass', null],
    ],
    [
      'Microsoft 365, no authserv-id',
      'spf=softfail (sender IP is 192.0.2.1) smtp.mailfrom=a.example; dkim=none (message not signed) header.d=none;dmarc=fail action=oreject header.from=a.example;compauth=fail reason=000',
      null,
      ['softfail', 'none', 'fail', 'fail'],
    ],
    [
      'upper case and spaces round =',
      'MX.EXAMPLE; SPF = Neutral; DKIM=PermError; DMARC=BestGuessPass',
      'MX.EXAMPLE',
      ['neutral', 'permerror', 'bestguesspass', null],
    ],
    ['nothing checked', 'mx.example.org; none', 'mx.example.org', [null, null, null, null]],
    ['a comment that looks like a result', 'mx.example; spf=fail (dkim=pass; dmarc=pass) smtp.mailfrom=a.example', 'mx.example', ['fail', null, null, null]],
    ['a method it does not report', 'mx.example; arc=pass; iprev=fail; auth=pass smtp.auth=x', 'mx.example', [null, null, null, null]],
    ['dkim: the first when none passed', 'mx.example; dkim=fail header.d=a.example; dkim=neutral header.d=b.example', 'mx.example', [null, 'fail', null, null]],
  ])('%s', (_name, value, by, [spf, dkim, dmarc, compauth]) => {
    const actual = readAuthResults(value);

    expect(actual).toEqual({ by, verdicts: { spf, dkim, dmarc, compauth } });
  });
});

describe('withoutComments', () => {
  it('removes nested comments and keeps quoted text and escaped parentheses', () => {
    const actual = withoutComments('a (b (c) d) "e (f)" g \\( h');

    expect(actual).toBe('a  "e (f)" g \\( h');
  });
});

describe('readReceived', () => {
  it.each([
    [
      'Postfix',
      'from mail.a.example (mail.a.example [192.0.2.10]) by mx.b.example (Postfix) with ESMTPS id 4Tx; Tue, 2 Apr 2024 10:00:00 +0200',
      { from: 'mail.a.example', ip: '192.0.2.10', by: 'mx.b.example', date: '2024-04-02T08:00:00.000Z' },
    ],
    [
      'Exchange, address in parentheses',
      'from a.example (198.51.100.23) by X.mail.protection.outlook.com (10.13.182.120) with Microsoft SMTP Server; Fri, 15 Mar 2024 11:19:50 +0000',
      { from: 'a.example', ip: '198.51.100.23', by: 'X.mail.protection.outlook.com', date: '2024-03-15T11:19:50.000Z' },
    ],
    [
      'IPv6 literal',
      'from h.a.example ([IPv6:2001:db8::25]) by mx.b.example; Fri, 15 Mar 2024 11:19:50 +0000',
      { from: 'h.a.example', ip: '2001:db8::25', by: 'mx.b.example', date: '2024-03-15T11:19:50.000Z' },
    ],
    [
      'no from clause',
      'by 2002:a05:7300:5c8a:: with SMTP id x10; Fri, 15 Mar 2024 04:20:01 -0700',
      { from: null, ip: null, by: '2002:a05:7300:5c8a::', date: '2024-03-15T11:20:01.000Z' },
    ],
    [
      'the by host’s address is not the sender’s',
      'from h.a.example (HELO h) by mx.b.example [192.0.2.200]; junk date',
      { from: 'h.a.example', ip: null, by: 'mx.b.example', date: 'junk date' },
    ],
    ['a bad address literal', 'from h.a.example [999.1.1.1] by mx.b.example', { from: 'h.a.example', ip: null, by: 'mx.b.example', date: null }],
  ])('%s', (_name, value, expected) => {
    const actual = readReceived(value);

    expect(actual).toEqual(expected);
  });
});

describe('enteringHop', () => {
  it('passes over private addresses and the receiver’s own hops on public addresses', () => {
    const headers = headerList(
      [
        'Received: from a.prod.outlook.com (2603:10b6:5:3a0::12) by b.prod.outlook.com with HTTPS; Fri, 15 Mar 2024 11:19:52 +0000',
        'Received: from relay.corp.example (relay.corp.example [10.0.0.5]) by mx.corp.example; Fri, 15 Mar 2024 11:19:51 +0000',
        'Received: from out.sender.example (out.sender.example [203.0.113.9]) by relay.corp.example; Fri, 15 Mar 2024 11:19:50 +0000',
        'Received: from forged.example (forged.example [198.51.100.1]) by out.sender.example; Fri, 15 Mar 2024 11:19:49 +0000',
      ].join('\r\n'),
    );

    const actual = enteringHop(headers);

    expect(actual?.from).toBe('out.sender.example');
  });

  it('is null when every hop is inside', () => {
    const actual = enteringHop(headerList('Received: from a (a [192.168.1.2]) by b; Fri, 15 Mar 2024 11:19:50 +0000\r\nReceived: from c (c [127.0.0.1]) by a'));

    expect(actual).toBeNull();
  });
});

describe('senderStory', () => {
  it.each([
    ['same registrable domain: no warning', 'From: PayPal <service@paypal.com>\r\nReply-To: help@support.paypal.com\r\nReturn-Path: <b@bounce.paypal.com>', []],
    ['a name naming the sender’s own domain: no warning', 'From: "service@paypal.com" <service@paypal.com>', []],
    ['a name naming another domain', 'From: "paypal.com" <x@evil.example>', ['nameHoldsDomain']],
    ['a brand word is no domain', 'From: PayPal Security <x@evil.example>', []],
    ['reply-to elsewhere', 'From: a@one.example\r\nReply-To: b@two.example', ['replyToDomain']],
    ['the null return path', 'From: a@one.example\r\nReturn-Path: <>', []],
  ])('%s', (_name, headers, expected) => {
    const actual = senderStory(letterOf(headers)).warnings;

    expect(actual).toEqual(expected);
  });

  it('reads a .msg’s recorded sender when it kept no headers', () => {
    const actual = senderStory(letterOf('', 'Accounts <ar@pay-invoice.example>')).from;

    expect(actual).toEqual({ name: 'Accounts', address: 'ar@pay-invoice.example', domain: 'pay-invoice.example', unicodeDomain: null });
  });

  it('reads an address group’s first member', () => {
    const actual = senderStory(letterOf('From: Team: a@one.example, b@two.example;')).from?.address;

    expect(actual).toBe('a@one.example');
  });
});

describe('headerList', () => {
  it('unfolds continued lines and stops at the blank line', () => {
    const actual = headerList('Subject: a\r\n  b\r\nX-Bad line\r\nFrom: c\r\n\r\nTo: body');

    expect(actual).toEqual([
      { key: 'subject', value: 'a  b' },
      { key: 'from', value: 'c' },
    ]);
  });
});
