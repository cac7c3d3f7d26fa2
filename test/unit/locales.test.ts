/**
 * Translations: every locale in public/_locales has exactly the messages of en (the
 * default locale), with the same placeholders, none empty, and `$` written the way
 * browser.i18n reads it. And the UI's JSX carries no user-visible text of its own:
 * every label, title and placeholder goes through t().
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { errorMessageKey } from '../../src/i18n/errors';
import { isApiErrorCode } from '../../src/service/errors';

const ROOT = resolve(import.meta.dirname, '../..');
const LOCALES_DIR = join(ROOT, 'public/_locales');
const DEFAULT_LOCALE = 'en';

interface Message {
  readonly message: string;
  readonly description?: string;
  readonly placeholders?: Record<string, { readonly content: string; readonly example?: string }>;
}
type Messages = Record<string, Message>;

function load(locale: string): Messages {
  return JSON.parse(readFileSync(join(LOCALES_DIR, locale, 'messages.json'), 'utf8')) as Messages;
}

const locales = readdirSync(LOCALES_DIR)
  .filter((name) => statSync(join(LOCALES_DIR, name)).isDirectory())
  .sort();
const others = locales.filter((locale) => locale !== DEFAULT_LOCALE);
const en = load(DEFAULT_LOCALE);

/** The numbered placeholders ($1..$9) a message uses, sorted, each once. */
function numbered(text: string): string[] {
  return [...new Set(text.match(/\$[1-9]/gu) ?? [])].sort();
}

/** `$` that browser.i18n would not read as `$$`, `$1`..`$9` or a declared `$name$`. */
function strayDollars(entry: Message): string[] {
  const declared = new Set(Object.keys(entry.placeholders ?? {}).map((name) => name.toLowerCase()));
  const stray: string[] = [];
  for (const match of entry.message.matchAll(/\$([$1-9]|(\w+)\$)?/gu)) {
    const named = match[2];
    if (match[1] === undefined || (named !== undefined && !declared.has(named.toLowerCase()))) stray.push(match[0]);
  }
  return stray;
}

describe('public/_locales', () => {
  it('has the default locale and the translations', () => {
    expect(locales).toContain(DEFAULT_LOCALE);
    expect(others).toEqual(expect.arrayContaining(['de', 'ja']));
  });

  it(`writes ${DEFAULT_LOCALE} well: every message non-empty, every $ readable by browser.i18n`, () => {
    const empty = Object.entries(en)
      .filter(([, entry]) => typeof entry.message !== 'string' || entry.message.trim() === '')
      .map(([key]) => key);
    const stray = Object.entries(en).flatMap(([key, entry]) => strayDollars(entry).map((s) => `${key}: ${s}`));
    expect({ empty, stray }).toEqual({ empty: [], stray: [] });
  });

  describe.each(others)('%s', (locale) => {
    const messages = load(locale);

    it(`has exactly the keys of ${DEFAULT_LOCALE}`, () => {
      const missing = Object.keys(en).filter((key) => !Object.hasOwn(messages, key));
      const extra = Object.keys(messages).filter((key) => !Object.hasOwn(en, key));
      expect({ missing, extra }, `${locale}: ${missing.length} missing, ${extra.length} extra`).toEqual({ missing: [], extra: [] });
    });

    it('has no empty message', () => {
      const empty = Object.entries(messages)
        .filter(([, entry]) => typeof entry.message !== 'string' || entry.message.trim() === '')
        .map(([key]) => key);
      expect(empty).toEqual([]);
    });

    it(`uses the same $1..$9 placeholders and named placeholders as ${DEFAULT_LOCALE}`, () => {
      const differ: string[] = [];
      for (const [key, entry] of Object.entries(messages)) {
        const source = en[key];
        if (source === undefined || typeof entry.message !== 'string') continue;
        const [want, have] = [numbered(source.message), numbered(entry.message)];
        if (want.join() !== have.join()) differ.push(`${key}: ${DEFAULT_LOCALE} has [${want.join(' ')}], ${locale} has [${have.join(' ')}]`);
        const [wantNamed, haveNamed] = [Object.keys(source.placeholders ?? {}).sort(), Object.keys(entry.placeholders ?? {}).sort()];
        if (wantNamed.join() !== haveNamed.join()) differ.push(`${key}: named placeholders ${wantNamed.join(' ')} vs ${haveNamed.join(' ')}`);
      }
      expect(differ).toEqual([]);
    });

    it('writes every $ the way browser.i18n reads it', () => {
      const stray = Object.entries(messages).flatMap(([key, entry]) =>
        typeof entry.message === 'string' ? strayDollars(entry).map((s) => `${key}: ${s}`) : [],
      );
      expect(stray).toEqual([]);
    });

    it('names its own language in popupLocale (dates and relative times follow it)', () => {
      const tag = messages['popupLocale']?.message ?? '';
      expect(Intl.getCanonicalLocales(tag)).toEqual([locale.replace('_', '-')]);
    });
  });
});

/** Attributes whose text a user sees or hears. */
const VISIBLE_ATTRIBUTES = new Set(['title', 'aria-label', 'aria-description', 'aria-roledescription', 'aria-valuetext', 'placeholder', 'alt', 'label']);

/** Text with no words to translate: examples such as example.com, #rrggbb or https://isolation.example.com. */
function languageNeutral(text: string): boolean {
  const trimmed = text.trim();
  return !/\p{L}/u.test(trimmed) || (!/\s/u.test(trimmed) && /[.#/:]/u.test(trimmed));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx$/u.test(name) ? [path] : [];
  });
}

/** JSX text and visible attributes written as literals, file:line and the text. */
function literalTexts(file: string, text = readFileSync(file, 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const at = (node: ts.Node): string => {
    // JSX text starts right after the tag, often with a line break: count from its first visible character.
    const lead = ts.isJsxText(node) ? node.text.length - node.text.trimStart().length : 0;
    return `${relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart() + lead).line + 1}`;
  };
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node) && !languageNeutral(node.text)) found.push(`${at(node)} text ${JSON.stringify(node.text.trim())}`);
    if (ts.isJsxExpression(node) && node.expression && (ts.isStringLiteral(node.expression) || ts.isNoSubstitutionTemplateLiteral(node.expression))) {
      const parent = node.parent;
      const text = node.expression.text;
      const visibleAttribute = ts.isJsxAttribute(parent) && VISIBLE_ATTRIBUTES.has(parent.name.getText());
      if ((ts.isJsxElement(parent) || ts.isJsxFragment(parent) || visibleAttribute) && !languageNeutral(text))
        found.push(`${at(node)} ${JSON.stringify(text)}`);
    }
    if (
      ts.isJsxAttribute(node) &&
      VISIBLE_ATTRIBUTES.has(node.name.getText()) &&
      node.initializer &&
      ts.isStringLiteral(node.initializer) &&
      !languageNeutral(node.initializer.text)
    ) {
      found.push(`${at(node)} ${node.name.getText()}=${JSON.stringify(node.initializer.text)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('user-visible text in the UI', () => {
  const files = [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'entrypoints'))];

  it('finds the UI sources', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it('has no literal text in JSX or in title, aria-label, placeholder, alt or label attributes: all of it comes from t()', () => {
    expect(files.flatMap((file) => literalTexts(file))).toEqual([]);
  });

  it('catches what it is meant to catch', () => {
    const probe = [
      'export const A = () => (',
      '  <p title="Open it">',
      '    Hello {t(\'popupOpen\')} {"world"}',
      '    <input placeholder="example.com" aria-label={\'Close\'} value="foreground" />',
      '  </p>',
      ');',
    ].join('\n');
    expect(literalTexts(join(ROOT, 'src/probe.tsx'), probe)).toEqual([
      'src/probe.tsx:2 title="Open it"',
      'src/probe.tsx:3 text "Hello"',
      'src/probe.tsx:3 "world"',
      'src/probe.tsx:4 "Close"',
    ]);
    expect(languageNeutral('example.com')).toBe(true);
    expect(languageNeutral('#rrggbb')).toBe(true);
    expect(languageNeutral('Save')).toBe(false);
    expect(languageNeutral('Set by your organisation')).toBe(false);
  });
});

// ---- every message is used ---------------------------------------------------------------

/** Files whose text may name a message key: sources, pages, the manifest's config, public JSON/HTML. */
function keyHolders(dir: string, pattern: RegExp, skip: (path: string) => boolean = () => false): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (skip(path)) return [];
    if (statSync(path).isDirectory()) return keyHolders(path, pattern, skip);
    return pattern.test(name) ? [path] : [];
  });
}

/** The keys of `messages` that no text names: as a quoted literal ('key', "key", `key`) or as __MSG_key__. */
function unusedKeys(messages: Messages, texts: readonly string[]): string[] {
  const named = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(/['"`](\w+)['"`]/gu)) named.add(match[1] ?? '');
    for (const match of text.matchAll(/__MSG_(\w+?)__/gu)) named.add(match[1] ?? '');
  }
  return Object.keys(messages).filter((key) => !named.has(key));
}

/** Whether key is the one errorMessageKey derives from a code of the client's errors (`apiTooLong` from `tooLong`): no text names it. */
function derivedFromCode(key: string): boolean {
  const code = key.startsWith('api') ? `${key.charAt(3).toLowerCase()}${key.slice(4)}` : '';
  return isApiErrorCode(code) && errorMessageKey(code) === key;
}

describe(`every ${DEFAULT_LOCALE} message is used`, () => {
  const files = [
    ...keyHolders(join(ROOT, 'src'), /\.(?:ts|tsx|html)$/u),
    ...keyHolders(join(ROOT, 'entrypoints'), /\.(?:ts|tsx|html)$/u),
    join(ROOT, 'wxt.config.ts'),
    ...keyHolders(join(ROOT, 'public'), /\.(?:json|html)$/u, (path) => path === LOCALES_DIR),
  ];
  const texts = files.map((file) => readFileSync(file, 'utf8'));

  it('finds the sources and the manifest strings', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(texts.some((text) => text.includes('__MSG_extName__'))).toBe(true);
  });

  it('names every key somewhere in src/, entrypoints/, wxt.config.ts or public/, or derives it from an error code (no dead keys)', () => {
    expect(unusedKeys(en, texts).filter((key) => !derivedFromCode(key))).toEqual([]);
  });

  it('derives a key only from a code the client has', () => {
    expect(['apiTooLong', 'apiReplyShape', 'apiHttpStatusText'].filter(derivedFromCode)).toEqual(['apiTooLong', 'apiReplyShape', 'apiHttpStatusText']);
    expect(['apiGone', 'apitooLong', 'apiSettingLocked', 'tooLong', 'api', 'proxyWarnSocks4'].filter(derivedFromCode)).toEqual([]);
  });

  it('catches what it is meant to catch', () => {
    const messages: Messages = {
      used: { message: 'a' },
      manifest: { message: 'b' },
      table: { message: 'c' },
      dead: { message: 'd' },
      deadToo: { message: 'e' },
    };
    const texts = ["t('used')", "name: '__MSG_manifest__'", 'const KEYS = { x: "table" } as const;', '// deadToo is only in a comment, dead nowhere'];
    expect(unusedKeys(messages, texts)).toEqual(['dead', 'deadToo']);
  });
});

// ---- errors the background builds -------------------------------------------------------

/** Words a person reads: two letters, a space, a letter (not a code such as 'tooLong' or a URL). */
function isProse(text: string): boolean {
  return /\p{L}\p{L}\s\p{L}/u.test(text.replace(/\s+/gu, ' '));
}

/** The literal text of a string or template (placeholders as X); undefined for anything else. */
function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((span) => `X${span.literal.text}`).join('');
  return undefined;
}

/**
 * English handed to an error or a reply: a prose literal given to `new …Error(…)`, thrown
 * as it is, or written as the `message` or `title` of an object (an error as data). Such
 * text must come from t().
 */
function englishErrorTexts(file: string, text = readFileSync(file, 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const report = (node: ts.Node, what: string, literal: string): void => {
    found.push(`${relative(ROOT, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${what} ${JSON.stringify(literal)}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node) && /Error$/u.test(node.expression.getText())) {
      for (const argument of node.arguments ?? []) {
        const literal = literalText(argument);
        if (literal !== undefined && isProse(literal)) report(argument, `new ${node.expression.getText()}`, literal);
      }
    }
    if (ts.isThrowStatement(node)) {
      const literal = literalText(node.expression);
      if (literal !== undefined && isProse(literal)) report(node, 'throw', literal);
    }
    if (ts.isPropertyAssignment(node) && ['message', 'title'].includes(node.name.getText())) {
      const literal = literalText(node.initializer);
      if (literal !== undefined && isProse(literal)) report(node, node.name.getText(), literal);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('errors built in src/background, src/settings, src/messaging/page.ts and src/ui', () => {
  const files = [
    ...keyHolders(join(ROOT, 'src/background'), /\.ts$/u),
    ...keyHolders(join(ROOT, 'src/settings'), /\.ts$/u),
    join(ROOT, 'src/messaging/page.ts'),
    ...keyHolders(join(ROOT, 'src/ui'), /\.tsx?$/u),
  ];

  it('finds the sources', () => {
    const inside = (dir: string) => files.filter((file) => relative(ROOT, file).startsWith(dir)).length;
    expect(inside('src/background/')).toBeGreaterThan(8);
    expect(inside('src/settings/')).toBeGreaterThan(6);
    expect(inside('src/messaging/')).toBe(1);
    expect(inside('src/ui/')).toBeGreaterThan(30);
  });

  it('are given the analyst’s words through t() or a code, never a literal English string', () => {
    expect(files.flatMap((file) => englishErrorTexts(file))).toEqual([]);
  });

  it('catches what it is meant to catch', () => {
    const probe = [
      "throw new Error('The clipboard refused the text.');",
      'throw new RefusedUrlError(`Cannot isolate ${url} here`);',
      "throw new NotConfiguredError(t('problemNoToken'));",
      "throw new ValidationError('url', 'urlNotAbsolute');",
      "const reply = { name: 'Error', message: 'Something went wrong.' };",
      "const failure = { title: t('failAuth'), message: error.message };",
      "throw 'Nothing works';",
      "console.warn('Isolink could not update the recent list');",
    ].join('\n');
    expect(englishErrorTexts(join(ROOT, 'src/background/probe.ts'), probe)).toEqual([
      'src/background/probe.ts:1 new Error "The clipboard refused the text."',
      'src/background/probe.ts:2 new RefusedUrlError "Cannot isolate X here"',
      'src/background/probe.ts:5 message "Something went wrong."',
      'src/background/probe.ts:7 throw "Nothing works"',
    ]);
    expect(isProse('tooLong')).toBe(false);
    expect(isProse('https://example.com/a b')).toBe(false);
  });

  it('catches English given to a settings issue, a page’s error and an error a page builds', () => {
    const settings = [
      "issues.push({ key, message: 'is set by your organisation' });",
      "issues.push(settingIssue(key, 'settingLocked'));",
      "throw new SettingsError([{ key: '', message: `file is larger than ${max} KiB` }]);",
      'throw new RangeError(`The token must be 1 to ${MAX_TOKEN_LENGTH} characters of text.`);',
      'throw new TokenError(MAX_TOKEN_LENGTH);',
    ].join('\n');
    expect(englishErrorTexts(join(ROOT, 'src/settings/probe.ts'), settings)).toEqual([
      'src/settings/probe.ts:1 message "is set by your organisation"',
      'src/settings/probe.ts:3 message "file is larger than X KiB"',
      'src/settings/probe.ts:4 new RangeError "The token must be 1 to X characters of text."',
    ]);
    const page = "if (!isReply(reply)) throw new RemoteError({ name: 'Error', message: 'Isolink did not answer. Reload the extension and try again.' });";
    expect(englishErrorTexts(join(ROOT, 'src/messaging/page.ts'), page)).toEqual([
      'src/messaging/page.ts:1 message "Isolink did not answer. Reload the extension and try again."',
    ]);
    const ui = [
      'export function Form() {',
      "  const failure = () => setError(new Error('Type a domain first'));",
      "  const notice = { kind: 'error', title: 'Not saved', message: t('optionsFixFields') };",
      '  return <p title="Not saved">{notice.message}</p>;',
      '}',
    ].join('\n');
    expect(englishErrorTexts(join(ROOT, 'src/ui/options/probe.tsx'), ui)).toEqual([
      'src/ui/options/probe.tsx:2 new Error "Type a domain first"',
      'src/ui/options/probe.tsx:3 title "Not saved"',
    ]);
  });
});
