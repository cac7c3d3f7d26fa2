/**
 * The mail corpus (test/fixtures/mail/): .eml files made with Python's email package and
 * .msg files laid out from [MS-OXMSG], each with the links expected of it, written by hand
 * from the mail rather than from Isolink's output (see the folders' READMEs). Every mail
 * is read through linksInMail and compared field by field.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { linksInMail, type MailLink } from '../../src/readers';

const ROOT = resolve(import.meta.dirname, '../fixtures/mail');

interface ExpectedLink {
  readonly target: string | null;
  readonly shown: string | null;
  readonly mismatch: boolean;
  readonly where: readonly string[];
  readonly wrappedBy?: readonly string[];
  readonly url?: string;
  readonly scriptOnly?: boolean;
}

interface ExpectedMail {
  readonly from?: string;
  readonly subject?: string;
  readonly links?: readonly ExpectedLink[];
  readonly remoteContent?: number;
  readonly error?: string;
}

function corpus(folder: string): [string, ExpectedMail][] {
  const { mails } = JSON.parse(readFileSync(join(ROOT, folder, 'expected.json'), 'utf8')) as { mails: Record<string, ExpectedMail> };
  return Object.entries(mails);
}

/** The fields of a link the corpus states: url, wrappedBy and scriptOnly only where it gives them. */
function stated(link: MailLink, expected: ExpectedLink): ExpectedLink {
  return {
    target: link.target,
    shown: link.shown,
    mismatch: link.mismatch,
    where: link.where,
    ...(expected.wrappedBy === undefined ? {} : { wrappedBy: link.wrappedBy }),
    ...(expected.url === undefined ? {} : { url: link.url }),
    ...(expected.scriptOnly === undefined ? {} : { scriptOnly: link.scriptOnly }),
  };
}

const FORMATS = { eml: 'eml', msg: 'msg' } as const;

describe.each(Object.keys(FORMATS) as (keyof typeof FORMATS)[])('the %s corpus', (folder) => {
  const mails = corpus(folder);

  it('has the mails the README lists', () => {
    expect(mails.length).toBeGreaterThanOrEqual(folder === 'eml' ? 40 : 8);
  });

  it.each(mails)('%s', async (name, expected) => {
    const bytes = readFileSync(join(ROOT, folder, name));
    const reading = await linksInMail(bytes, { format: name.endsWith('.msg') ? 'msg' : 'auto' });
    if (expected.error !== undefined) {
      expect(reading).toMatchObject({ ok: false, code: expected.error });
      return;
    }
    if (!reading.ok) throw new Error(`${name}: ${reading.code}: ${reading.reason}`);
    if (expected.from !== undefined) expect(reading.from).toBe(expected.from);
    if (expected.subject !== undefined) expect(reading.subject).toBe(expected.subject);
    if (expected.remoteContent !== undefined) expect(reading.remoteContent).toBe(expected.remoteContent);
    const links = expected.links ?? [];
    expect(reading.links.map((link, i) => stated(link, links[i] ?? link))).toEqual(links);
    expect(reading.problems).toEqual([]);
  });
});
