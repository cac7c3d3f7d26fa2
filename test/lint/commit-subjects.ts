// Checks the subjects of the commits made since the check began: at most 72 characters,
// one line, not empty (CONTRIBUTING.md, "Commits"). Run by `npm run lint` (through tsx).
//
// History before BASELINE landed as it is (a few old subjects are longer); every commit
// after it is checked, so the habit cannot drift again. A checkout without git, or one
// cloned too shallow to hold the baseline, checks the commits it has.
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/** The last commit before this check existed. */
export const BASELINE = 'ee9c8bac92e74a2218254a77519f892dcbfd5efa';
export const MAX_SUBJECT = 72;

/** A commit as the check reads it. */
export interface Commit {
  readonly hash: string;
  readonly subject: string;
}

/** What is wrong with each commit's subject: an empty list when all are well. */
export function subjectProblems(commits: readonly Commit[]): string[] {
  const problems: string[] = [];
  for (const { hash, subject } of commits) {
    const short = hash.slice(0, 7);
    if (subject.trim() === '') problems.push(`${short}: the subject is empty`);
    else if ([...subject].length > MAX_SUBJECT)
      problems.push(`${short}: the subject has ${[...subject].length} characters (at most ${MAX_SUBJECT}): "${subject}"`);
  }
  return problems;
}

function git(args: readonly string[]): string {
  return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

/** The commits to check, newest first: those after the baseline, or all there are without it. */
function commitsToCheck(): Commit[] {
  let range = 'HEAD';
  try {
    git(['rev-parse', '--verify', '--quiet', `${BASELINE}^{commit}`]);
    range = `${BASELINE}..HEAD`;
  } catch {
    // No baseline here (a shallow clone): check what there is.
  }
  const fields = git(['log', '--format=%H%x00%s%x00', range]).split('\0');
  const commits: Commit[] = [];
  for (let index = 0; index + 1 < fields.length; index += 2) commits.push({ hash: (fields[index] ?? '').trim(), subject: fields[index + 1] ?? '' });
  return commits;
}

function main(): void {
  try {
    git(['rev-parse', '--git-dir']);
  } catch {
    console.log('commit subjects: not a git checkout, nothing to check');
    return;
  }
  const commits = commitsToCheck();
  const problems = subjectProblems(commits);
  if (problems.length === 0) {
    console.log(`commit subjects: ${commits.length} checked, all at most ${MAX_SUBJECT} characters`);
    return;
  }
  console.error(`commit subjects (CONTRIBUTING.md, "Commits"): reword before it lands (git rebase -i, "reword")\n${problems.join('\n')}`);
  process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
