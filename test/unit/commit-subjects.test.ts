/**
 * The commit-subject check of `npm run lint` (test/lint/commit-subjects.ts): the rule on
 * given subjects, and the script itself on a repository of its own, where it must fail.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_SUBJECT, subjectProblems } from '../lint/commit-subjects';

const SCRIPT = resolve(import.meta.dirname, '../lint/commit-subjects.ts');
const TSX = resolve(import.meta.dirname, '../../node_modules/.bin/tsx');

describe('subjectProblems', () => {
  it.each([
    ['exactly the limit', 'a'.repeat(MAX_SUBJECT), 0],
    ['one over the limit', 'a'.repeat(MAX_SUBJECT + 1), 1],
    ['empty', '', 1],
    ['blank', '   ', 1],
    ['72 characters that are more than 72 bytes', 'ä'.repeat(MAX_SUBJECT), 0],
  ])('%s', (_name, subject, expected) => {
    const actual = subjectProblems([{ hash: '0123456789abcdef', subject }]);

    expect(actual).toHaveLength(expected);
  });

  it('names the commit and its length', () => {
    const subject = 'Unwrap Proofpoint v3 links, and say in the README which forms and why, at length';

    const actual = subjectProblems([{ hash: '0123456789abcdef', subject }]);

    expect(actual).toEqual([`0123456: the subject has ${subject.length} characters (at most 72): "${subject}"`]);
  });
});

describe('the script on a repository', () => {
  let dir = '';
  afterEach(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  function repoWith(subjects: readonly string[]): string {
    dir = mkdtempSync(join(tmpdir(), 'isolink-subjects-'));
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
    git('init', '-q');
    for (const subject of subjects)
      git('-c', 'user.name=Test', '-c', 'user.email=test@example.invalid', 'commit', '-q', '--allow-empty', '-m', subject, '-m', 'Why it was made.');
    return dir;
  }

  it('passes when every subject is short', () => {
    const cwd = repoWith(['Unwrap Proofpoint v3 links', 'Refang every delimiter']);

    const actual = spawnSync(TSX, [SCRIPT], { cwd, encoding: 'utf8' });

    expect(actual.status).toBe(0);
    expect(actual.stdout).toContain('2 checked');
  });

  it('fails on a subject over 72 characters and names it', () => {
    const long = 'Judge the pages against the floor page; draw options below the fold later';
    const cwd = repoWith(['Unwrap Proofpoint v3 links', long]);

    const actual = spawnSync(TSX, [SCRIPT], { cwd, encoding: 'utf8' });

    expect(actual.status).toBe(1);
    expect(actual.stderr).toContain(long);
  });
});
