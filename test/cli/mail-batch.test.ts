/**
 * `isolink mail` over many mails, end to end: the built command (its worker threads
 * included) on a folder with a Maildir, other files and a damaged mail, and on mboxes
 * written by Python's mailbox module and by the mboxrd definition
 * (test/fixtures/mail/make-mbox.py); `--by-target`, `--top`, `--jobs`, and `--open`
 * against the simulator over real HTTP on 127.0.0.1.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import type { Simulator } from '../simulator';
import { useSimulator } from '../simulator/helpers';
import { apiCalls, envFor, isolink, put, records, scratch } from './helpers';

const handle = useSimulator();
const sim = (): Simulator => handle.sim;
const EML = resolve(import.meta.dirname, '../fixtures/mail/eml');
const MBOX = resolve(import.meta.dirname, '../fixtures/mail/mbox');

/** A folder of reports: two mails at the top, a Maildir with two more, a note, and a damaged mail. */
function abuseFolder(): string {
  const dir = scratch();
  mkdirSync(join(dir, 'maildir/cur'), { recursive: true });
  mkdirSync(join(dir, 'maildir/new'), { recursive: true });
  copyFileSync(join(EML, '17-lying-display-text.eml'), join(dir, 'a-lying.eml'));
  copyFileSync(join(EML, '21-defanged-plain-text.eml'), join(dir, 'b-defanged.eml'));
  copyFileSync(join(EML, '17-lying-display-text.eml'), join(dir, 'maildir/cur/1700000000.M1P1.host:2,S'));
  copyFileSync(join(EML, '04-proofpoint-v2-payroll.eml'), join(dir, 'maildir/new/1700000001.M2P2.host'));
  put(dir, 'notes.txt', 'Ticket 4411: see the mails here.\n');
  put(dir, 'c-damaged.eml', new Uint8Array([0, 1, 2, 3, 0, 0, 7]));
  return dir;
}

describe('isolink mail with many mails', () => {
  it('reads a folder and its Maildir: rows with the mail first, the damaged one named, exit 1', async () => {
    const dir = abuseFolder();

    const ran = await isolink(['mail', '.'], { cwd: dir });

    expect(ran.code).toBe(1);
    const mails = ran.stdout
      .trim()
      .split('\n')
      .map((line) => line.split('\t')[0]);
    expect([...new Set(mails)]).toEqual(['a-lying.eml', 'b-defanged.eml', 'maildir/cur/1700000000.M1P1.host:2,S', 'maildir/new/1700000001.M2P2.host']);
    expect(ran.stderr).toContain(
      'isolink: c-damaged.eml is not a mail: neither a MIME message (.eml) nor an Outlook message (.msg); the other mails are read.',
    );
    expect(ran.stderr).toContain('isolink: 4 mail(s) read, 1 could not be; 1 other file(s) skipped.');
    // On a pipe: no progress, no carriage return.
    expect(ran.stderr).not.toContain('\r');
  });

  it('--json objects carry mail: the file, or for an mbox <file>#<n>', async () => {
    const ran = await isolink(['mail', '--json', join(MBOX, 'mboxrd.mbox'), join(EML, '21-defanged-plain-text.eml')]);

    expect(ran.code).toBe(0);
    const rows = records(ran.stdout);
    expect([...new Set(rows.map((row) => row['mail']))]).toEqual([
      `${join(MBOX, 'mboxrd.mbox')}#1`,
      `${join(MBOX, 'mboxrd.mbox')}#2`,
      `${join(MBOX, 'mboxrd.mbox')}#3`,
      join(EML, '21-defanged-plain-text.eml'),
    ]);
    expect(rows.filter((row) => String(row['mail']).endsWith('#1')).map((row) => row['target'])).toEqual([
      'https://invoice-desk.example/pay/1',
      'https://quoted.example/old',
    ]);
  });

  it('--by-target: one object per distinct target with the mails holding it, on one thread as on all', async () => {
    const args = ['mail', '--by-target', '--json', join(MBOX, 'mboxo.mbox'), join(MBOX, 'mboxrd.mbox')];

    const [all, one] = await Promise.all([isolink(args), isolink([...args, '--jobs', '1'])]);

    expect(all.code).toBe(0);
    expect(one.stdout).toBe(all.stdout);
    const rows = records(all.stdout);
    expect(rows[0]).toEqual({
      target: 'https://invoice-desk.example/pay/1',
      mails: 4,
      files: ['1', '3'].flatMap((n) => [`${join(MBOX, 'mboxo.mbox')}#${n}`]).concat(['1', '3'].map((n) => `${join(MBOX, 'mboxrd.mbox')}#${n}`)),
      first: '2024-03-01T10:00:00.000Z',
      last: '2024-03-03T10:00:00.000Z',
      flags: [],
    });
    expect(rows.map((row) => [row['target'], row['mails']])).toEqual([
      ['https://invoice-desk.example/pay/1', 4],
      ['https://parcel-hold.example/track/2', 2],
      ['https://quoted.example/old', 2],
    ]);
  });

  it('--by-target flags a target whose text lied or that was wrapped, and --top keeps the most reported', async () => {
    const dir = abuseFolder();

    const ran = await isolink(['mail', '.', '--by-target', '--top', '2', '--json'], { cwd: dir });

    const rows = records(ran.stdout);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ mails: 2, files: ['a-lying.eml', 'maildir/cur/1700000000.M1P1.host:2,S'] });
    expect(rows.flatMap((row) => row['flags'] as string[])).toContain('mismatch');
  });

  it('--open creates each distinct target once, in one batched request', async () => {
    const ran = await isolink(['mail', '--open', '--json', join(MBOX, 'mboxo.mbox'), join(MBOX, 'mboxrd.mbox')], { env: envFor(sim()) });

    expect(ran.code).toBe(0);
    const creates = apiCalls(sim()).filter((call) => call.some((entry) => entry.command === 'create_context'));
    expect(creates).toHaveLength(1);
    expect(records(ran.stdout)).toHaveLength(3);
  });

  it('refuses --only and --format with many mails, and --top without --by-target', async () => {
    const refused = await Promise.all([
      isolink(['mail', '--open', '--only', '1', join(MBOX, 'mboxrd.mbox')]),
      isolink(['mail', '--format', 'eml', join(MBOX, 'mboxrd.mbox')]),
      isolink(['mail', '--top', '3', join(MBOX, 'mboxrd.mbox')]),
    ]);

    expect(refused.map((ran) => ran.code)).toEqual([2, 2, 2]);
    expect(refused[0].stderr).toContain('--only takes the rows of one mail');
  });
});
