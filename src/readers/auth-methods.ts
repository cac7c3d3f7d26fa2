/**
 * The checks whose verdicts the sender's story reads from Authentication-Results. A module
 * of its own, with no parser behind it, so the pages can name the checks without loading
 * the readers (test/unit/lazy-readers.test.ts).
 */

/** The checks whose verdicts are read from Authentication-Results, in the order they are said. */
export const AUTH_METHODS = ['spf', 'dkim', 'dmarc', 'compauth'] as const;
/** One of the checks read: `spf`, `dkim`, `dmarc` or `compauth`. */
export type AuthMethod = (typeof AUTH_METHODS)[number];
/** Each check's verdict word in lower case (`pass`, `fail`, `softfail`, `none`, …), or null when the header does not say. */
export type AuthVerdicts = Readonly<Record<AuthMethod, string | null>>;
