/**
 * The targets of many mails gathered (src/readers/targets, shared by `isolink mail
 * --by-target` and the reported mail page): one row per distinct target, how many mails
 * hold it and which, the first and last date, the flags seen in any mail, the link that
 * stands for it, most reported first; and the page's plan of which files of a drop are read.
 */
import { describe, expect, it } from 'vitest';
import type { MailLink } from '../../src/readers';
import { MAIL_LIMITS } from '../../src/readers/limits';
import { MAX_TARGET_FILES, TargetTally } from '../../src/readers/targets';
import { MANY_LIMITS, planBatch, type BatchFile } from '../../src/ui/mail/many';

function link(target: string | null, more: Partial<MailLink> = {}): MailLink {
  return {
    url: target ?? 'javascript:alert(1)',
    target,
    shown: null,
    mismatch: false,
    where: ['html'],
    scriptOnly: false,
    wrappedBy: [],
    opaque: false,
    ...more,
  };
}

describe('TargetTally', () => {
  it('gives one row per target with the mails holding it, in the order read, most reported first', () => {
    const tally = new TargetTally();
    tally.add('a.eml', { date: '2024-03-02T10:00:00.000Z', links: [link('https://pay.example/1'), link('https://b.example/')] });
    tally.add('b.eml', { date: '2024-03-01T10:00:00.000Z', links: [link('https://pay.example/1')] });
    tally.add('c.eml', { date: null, links: [link('https://pay.example/1'), link(null)] });

    expect(tally.rows()).toEqual([
      {
        target: 'https://pay.example/1',
        mails: 3,
        files: ['a.eml', 'b.eml', 'c.eml'],
        first: '2024-03-01T10:00:00.000Z',
        last: '2024-03-02T10:00:00.000Z',
        flags: [],
      },
      { target: 'https://b.example/', mails: 1, files: ['a.eml'], first: '2024-03-02T10:00:00.000Z', last: '2024-03-02T10:00:00.000Z', flags: [] },
    ]);
  });

  it('orders ties by target, and keeps the first `top`', () => {
    const tally = new TargetTally();
    tally.add('1', { date: null, links: [link('https://z.example/'), link('https://a.example/'), link('https://m.example/')] });
    expect(tally.rows().map((row) => row.target)).toEqual(['https://a.example/', 'https://m.example/', 'https://z.example/']);
    expect(tally.rows(2).map((row) => row.target)).toEqual(['https://a.example/', 'https://m.example/']);
  });

  it('flags a target mismatching or wrapped in any mail, and stands it for by the first link whose text lied', () => {
    const tally = new TargetTally();
    const plain = link('https://evil.example/', { url: 'https://evil.example/' });
    const lying = link('https://evil.example/', { url: 'https://evil.example/', shown: 'www.paypal.com', mismatch: true });
    const wrapped = link('https://evil.example/', { url: 'https://eur01.safelinks.protection.outlook.com/?url=x', wrappedBy: ['safelinks'] });
    tally.add('1.eml', { date: null, links: [plain] });
    tally.add('2.eml', { date: null, links: [wrapped] });
    tally.add('3.eml', { date: null, links: [lying] });

    const [entry] = tally.entries();
    expect(entry?.row.flags).toEqual(['mismatch', 'wrapped']);
    expect(entry?.row.mails).toBe(3);
    expect(entry?.link).toEqual(lying);
  });

  it('counts a mail once per target, reads no date from a date that does not parse, and names at most MAX_TARGET_FILES mails', () => {
    const tally = new TargetTally();
    tally.add('twice.eml', { date: 'not a date', links: [link('https://t.example/'), link('https://t.example/')] });
    expect(tally.rows()).toEqual([{ target: 'https://t.example/', mails: 1, files: ['twice.eml'], first: null, last: null, flags: [] }]);
    for (let index = 0; index < MAX_TARGET_FILES + 5; index++) tally.add(`${String(index)}.eml`, { date: null, links: [link('https://t.example/')] });
    const [row] = tally.rows();
    expect(row?.mails).toBe(MAX_TARGET_FILES + 6);
    expect(row?.files).toHaveLength(MAX_TARGET_FILES);
  });
});

function batchFile(name: string, size: number, inFolder = false): BatchFile {
  return { name, inFolder, file: { name, size, arrayBuffer: () => Promise.reject(new Error('not read in a plan')) } };
}

describe('planBatch: which files of a drop are read', () => {
  it('reads the files chosen in the order of their names, images too; counts a folder’s other files', () => {
    const plan = planBatch([
      batchFile('b.eml', 10),
      batchFile('scan.PNG', 10),
      batchFile('reports/a.msg', 10, true),
      batchFile('reports/notes.txt', 10, true),
      batchFile('loose.txt', 10),
    ]);
    expect(plan.read.map((file) => file.name)).toEqual(['b.eml', 'loose.txt', 'reports/a.msg', 'scan.PNG']);
    expect(plan.others).toBe(1);
  });

  it('names a file over the per-mail limit, and those beyond the count or the total, never reading them', () => {
    const files = [
      batchFile('big.eml', MAIL_LIMITS.bytes + 1),
      ...Array.from({ length: MANY_LIMITS.files + 2 }, (_, index) => batchFile(`m${String(index).padStart(4, '0')}.eml`, 1)),
    ];
    const plan = planBatch(files);
    expect(plan.tooLarge).toEqual([{ name: 'big.eml', size: MAIL_LIMITS.bytes + 1 }]);
    expect(plan.read).toHaveLength(MANY_LIMITS.files);
    expect(plan.overCount).toEqual(['m0500.eml', 'm0501.eml']);

    const heavy = Array.from({ length: 10 }, (_, index) => batchFile(`h${String(index)}.eml`, MAIL_LIMITS.bytes));
    const byBytes = planBatch(heavy);
    expect(byBytes.read).toHaveLength(Math.floor(MANY_LIMITS.bytes / MAIL_LIMITS.bytes));
    expect(byBytes.overBytes).toEqual(['h8.eml', 'h9.eml']);
  });
});
