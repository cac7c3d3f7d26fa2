/**
 * `isolink mail --report`, end to end: the built command's case note (Markdown) and case
 * record (`--json`, one object a line) for one mail whose headers and files Python wrote
 * (test/fixtures/mail/sender, files), and for an mbox, one per message in order, read on
 * the worker threads; `--report` with `--open` or `--by-target` is a usage error.
 */
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { isolink, records } from './helpers';

const MAIL = resolve(import.meta.dirname, '../fixtures/mail');
const MBOX = join(MAIL, 'mbox/mboxrd.mbox');

/** The record's fields, exactly and in order: scripts and external checks rely on them. */
const FIELDS = ['mail', 'subject', 'date', 'from', 'replyTo', 'returnPath', 'auth', 'received', 'reportedBy', 'attachments', 'links', 'problems'];

describe('isolink mail --report', () => {
  it('prints the case note of one mail: its sender story and its files, no live link', async () => {
    const ran = await isolink(['mail', '--report', join(MAIL, 'sender/02-microsoft-365.eml')]);

    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^## Reported mail: /);
    expect(ran.stdout).toContain('### Sender');
    expect(ran.stdout).toContain('- From: Microsoft 365 &lt;no-reply@m365-alerts\\[.\\]example&gt;');
    expect(ran.stdout).toContain('- Reply-To: helpdesk@reply-desk\\[.\\]example');
    expect(ran.stdout).toContain('### Links (');
    expect(ran.stdout).not.toMatch(/https?:/i);
    expect(ran.stdout).not.toContain('<');
  });

  it('--json prints one record with exactly the fields, the hashes Python wrote', async () => {
    const ran = await isolink(['mail', '--report', '--json', join(MAIL, 'files/01-attachments.eml')]);

    expect(ran.code).toBe(0);
    const [record, ...more] = records(ran.stdout);
    expect(more).toEqual([]);
    expect(Object.keys(record ?? {})).toEqual(FIELDS);
    expect(record?.['mail']).toBe(join(MAIL, 'files/01-attachments.eml'));
    const attachments = record?.['attachments'] as Record<string, unknown>[];
    expect(Object.keys(attachments[0] ?? {})).toEqual(['name', 'type', 'size', 'sha256', 'detected', 'disguised']);
    expect(attachments[0]).toEqual({
      name: 'Invoice_4471.pdf',
      type: 'application/pdf',
      size: 160,
      sha256: '916425be8e8fc5ca8e94303e27e65202882558c195e9287571f3887631937a2f',
      detected: 'text/html',
      disguised: true,
    });
  });

  it('--json gives the sender as written, the verdicts and the hop', async () => {
    const ran = await isolink(['mail', '--report', '--json', join(MAIL, 'sender/06-user-report.eml')]);

    const [record] = records(ran.stdout);
    expect(record?.['from']).toBe('Shared Files <share@files-portal.example>');
    expect(record?.['replyTo']).toBeNull();
    expect(record?.['returnPath']).toBe('bounce@files-portal.example');
    expect(record?.['reportedBy']).toBe('Jordan Lee <jordan.lee@corp.example>');
    expect(record?.['auth']).toEqual({ spf: 'pass', dkim: 'none', dmarc: 'none', compauth: 'softpass' });
    expect(Object.keys(record?.['received'] ?? {})).toEqual(['from', 'ip', 'by', 'date']);
    const [link] = record?.['links'] as Record<string, unknown>[];
    expect(Object.keys(link ?? {})).toEqual(['url', 'target', 'shown', 'mismatch', 'where', 'scriptOnly', 'wrappedBy', 'opaque', 'defanged']);
    expect(link?.['defanged']).toBe('hxxps://files-portal[.]example/d/8812');
  });

  it('prints a note per message of an mbox in order, and with --json a record per message', async () => {
    const [notes, json] = await Promise.all([isolink(['mail', '--report', MBOX]), isolink(['mail', '--report', '--json', MBOX])]);

    expect([notes.code, json.code]).toEqual([0, 0]);
    const headings = notes.stdout.split('\n').filter((line) => line.startsWith('## '));
    expect(headings.length).toBe(3);
    expect(notes.stdout).not.toMatch(/https?:/i);
    const rows = records(json.stdout);
    expect(rows.map((row) => row['mail'])).toEqual([`${MBOX}#1`, `${MBOX}#2`, `${MBOX}#3`]);
    for (const row of rows) expect(Object.keys(row)).toEqual(FIELDS);
  });

  it('is a usage error with --open or --by-target', async () => {
    const refused = await Promise.all([
      isolink(['mail', '--report', '--open', join(MAIL, 'sender/01-google.eml')]),
      isolink(['mail', '--report', '--by-target', MBOX]),
    ]);

    expect(refused.map((ran) => ran.code)).toEqual([2, 2]);
    expect(refused[0].stderr.trim().split('\n')).toEqual([
      "isolink: --report writes each mail's case note; drop --open (or run it on its own). See 'isolink mail --help'.",
    ]);
    expect(refused[1].stderr).toContain('drop --by-target');
  });
});
