/**
 * The mails in folders and mboxes (src/cli/mailbox.ts): mboxes written by Python's
 * mailbox module (mboxo) and by the mboxrd definition (test/fixtures/mail/make-mbox.py),
 * split into the very bytes of each mail; a broken mbox; a folder with a Maildir, other
 * files, a broken link and a loop of links.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { mailsIn, type FoundMail, type Passed } from '../../src/cli/mailbox';

const MBOX = resolve(import.meta.dirname, '../fixtures/mail/mbox');
const EML = resolve(import.meta.dirname, '../fixtures/mail/eml');

async function all(paths: readonly string[], cwd = '/'): Promise<{ mails: FoundMail[]; passed: Passed }> {
  const passed: Passed = { otherFiles: 0, loops: 0 };
  const mails: FoundMail[] = [];
  for await (const mail of mailsIn(paths, cwd, passed)) mails.push(mail);
  return { mails, passed };
}

function text(mail: FoundMail | undefined): string {
  if (mail === undefined || !('bytes' in mail)) throw new Error(`no bytes: ${JSON.stringify(mail)}`);
  return new TextDecoder().decode(mail.bytes);
}

const original = (n: number): string => readFileSync(join(MBOX, 'messages', `${String(n)}.eml`), 'utf8');

describe('an mbox', () => {
  it('mboxrd: each message exactly as written, one ">" taken off escaped lines', async () => {
    const { mails } = await all([join(MBOX, 'mboxrd.mbox')]);

    expect(mails.map((mail) => mail.name)).toEqual([1, 2, 3].map((n) => join(MBOX, `mboxrd.mbox#${String(n)}`)));
    expect(mails.map(text)).toEqual([1, 2, 3].map(original));
  });

  it('mboxo (Python, as Thunderbird keeps it): the same messages but for lines quoted ">From " before', async () => {
    const { mails } = await all([join(MBOX, 'mboxo.mbox')]);

    // mboxo cannot be told from mboxrd: a body line that was ">From " comes back as "From ".
    const lossy = (n: number) => original(n).replace(/^>(>*From )/gm, '$1');
    expect(mails.map(text)).toEqual([1, 2, 3].map(lossy));
    expect(text(mails[1])).toBe(original(2));
  });

  it('a broken one: a "From " line without a date cuts nothing and loses nothing; the last message needs no line end', async () => {
    const { mails } = await all([join(MBOX, 'broken.mbox')]);

    expect(mails.map((mail) => mail.name.split('#')[1])).toEqual(['1', '2']);
    // Its writer escaped nothing: "From the desk…" stays in its mail, and so do the lines after "From nobody".
    expect(text(mails[0])).toBe(`${original(1).replace(/^>(>*From )/gm, '$1')}\nFrom nobody\nthis is not a mail, only words\n`);
    expect(text(mails[1])).toBe(original(2).replace(/\n$/, ''));
  });

  it('never holds a message over the limit: it is named, and the next one is read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'isolink-mbox-'));
    const path = join(dir, 'big.mbox');
    const line = `${'x'.repeat(1023)}\n`;
    writeFileSync(path, `From a Fri Mar  1 10:00:00 2024\nSubject: big\n\n${line.repeat(26 * 1024)}\nFrom b Fri Mar  1 10:00:00 2024\n${original(2)}`);
    try {
      const { mails } = await all([path]);

      expect(mails).toHaveLength(2);
      expect(mails[0]).toMatchObject({ name: `${path}#1`, error: 'is larger than the limit of 25 MiB' });
      expect(text(mails[1])).toBe(original(2));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a folder', () => {
  const root = mkdtempSync(join(tmpdir(), 'isolink-folder-'));
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });
  mkdirSync(join(root, 'box/cur'), { recursive: true });
  mkdirSync(join(root, 'box/new'), { recursive: true });
  copyFileSync(join(EML, '01-outlook-paypal-vml.eml'), join(root, 'a.eml'));
  copyFileSync(join(EML, '17-lying-display-text.eml'), join(root, 'box/cur/1700000000.M1P2.host:2,S'));
  copyFileSync(join(EML, '21-defanged-plain-text.eml'), join(root, 'box/new/1700000001.M3P4.host'));
  writeFileSync(join(root, 'notes.txt'), 'not a mail\n');
  writeFileSync(join(root, 'box/cur/picture.png'), new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
  symlinkSync(root, join(root, 'box/loop'));
  symlinkSync(join(root, 'missing.eml'), join(root, 'dangling.eml'));

  it('reads every mail of it and its subfolders (a Maildir), in name order; counts the rest', async () => {
    const { mails, passed } = await all(['.'], root);

    expect(mails.map((mail) => [mail.name, 'bytes' in mail ? 'mail' : mail.error])).toEqual([
      ['a.eml', 'mail'],
      ['box/cur/1700000000.M1P2.host:2,S', 'mail'],
      ['box/new/1700000001.M3P4.host', 'mail'],
      ['dangling.eml', 'is a link to nothing that can be read (ENOENT)'],
    ]);
    expect(passed).toEqual({ otherFiles: 2, loops: 1 });
  });

  it('names a path that cannot be read and goes on', async () => {
    const { mails } = await all(['nowhere', 'a.eml'], root);

    expect(mails.map((mail) => ('bytes' in mail ? mail.name : `${mail.name}: ${mail.error}`))).toEqual(['nowhere: cannot be read (ENOENT)', 'a.eml']);
  });
});
