/**
 * Organisation paths.
 *
 * An organisation is named by the names of its ancestors and itself joined with `/`,
 * top level first: `acme/soc/tier1`. A slash inside one name is written `\/`, so the
 * org named `r/d` below `acme` is `acme/r\/d`.
 *
 * Decisions beyond the service's one stated rule (`\/` escapes a slash):
 * - `\\` stands for one backslash, so every name can be written and read back;
 * - a backslash before any other character (or at the end) is kept as it is;
 * - empty names (`a//b`, a leading or trailing `/`, the empty string) are invalid;
 * - paths are always absolute (they start at a top-level org); no trimming is done.
 */

export class OrgPathError extends Error {
  override readonly name = 'OrgPathError';
}

/** Splits an org path into its names, top level first. Throws OrgPathError when a name is empty. */
export function parseOrgPath(path: string): string[] {
  const names: string[] = [];
  let current = '';
  for (let i = 0; i < path.length; i += 1) {
    const ch = path.charAt(i);
    if (ch === '\\') {
      const next = path.charAt(i + 1);
      if (next === '/' || next === '\\') {
        current += next;
        i += 1;
      } else {
        current += ch;
      }
    } else if (ch === '/') {
      names.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  names.push(current);
  if (names.some((name) => name.length === 0)) {
    throw new OrgPathError(`invalid org path ${JSON.stringify(path)}: empty name`);
  }
  return names;
}

/** Writes one org name as a path segment: backslashes and slashes escaped. */
export function escapeOrgName(name: string): string {
  return name.replaceAll('\\', '\\\\').replaceAll('/', '\\/');
}

/** The inverse of parseOrgPath for non-empty names. */
export function formatOrgPath(names: readonly string[]): string {
  if (names.length === 0 || names.some((name) => name.length === 0)) {
    throw new OrgPathError('an org path needs at least one name and no empty names');
  }
  return names.map(escapeOrgName).join('/');
}
