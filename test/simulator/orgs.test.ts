import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrgPathError, formatOrgPath, parseOrgPath } from './orgs';
import { addOrg, createState, findOrgByPath, isWithin, orgPath, StateError } from './state';

describe('org paths', () => {
  it.each([
    ['acme', ['acme']],
    ['acme/soc/tier1', ['acme', 'soc', 'tier1']],
    ['acme/r\\/d', ['acme', 'r/d']],
    ['a\\/b\\/c', ['a/b/c']],
    ['acme/back\\\\slash', ['acme', 'back\\slash']],
    ['acme/back\\\\/child', ['acme', 'back\\', 'child']],
    ['x\\y', ['x\\y']],
    ['trailing\\', ['trailing\\']],
    [' spaced / names ', [' spaced ', ' names ']],
  ])('parses %s', (path, names) => {
    expect(parseOrgPath(path)).toEqual(names);
  });

  it.each(['', '/', 'acme/', '/acme', 'acme//soc'])('refuses %j (an empty name)', (path) => {
    expect(() => parseOrgPath(path)).toThrow(OrgPathError);
  });

  it('formats names with slashes and backslashes escaped', () => {
    expect(formatOrgPath(['acme', 'r/d'])).toBe('acme/r\\/d');
    expect(formatOrgPath(['a\\b'])).toBe('a\\\\b');
    expect(() => formatOrgPath([])).toThrow(OrgPathError);
    expect(() => formatOrgPath(['acme', ''])).toThrow(OrgPathError);
  });

  it('reads back every formatted path', () => {
    const name = fc.string({ unit: fc.constantFrom('a', '/', '\\', ' ', 'é'), minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 5 }), (names) => {
        expect(parseOrgPath(formatOrgPath(names))).toEqual(names);
      }),
    );
  });
});

describe('org tree', () => {
  it('keeps names unique among siblings only and finds orgs by path', () => {
    const state = createState();
    const acme = addOrg(state, null, 'acme');
    const globex = addOrg(state, null, 'globex');
    const acmeSoc = addOrg(state, acme.id, 'soc');
    const globexSoc = addOrg(state, globex.id, 'soc');
    const rd = addOrg(state, acme.id, 'r/d');
    expect(() => addOrg(state, acme.id, 'soc')).toThrow(StateError);
    expect(() => addOrg(state, null, 'acme')).toThrow(StateError);

    expect(findOrgByPath(state, 'acme/soc')).toBe(acmeSoc);
    expect(findOrgByPath(state, 'globex/soc')).toBe(globexSoc);
    expect(findOrgByPath(state, 'acme/r\\/d')).toBe(rd);
    expect(findOrgByPath(state, 'acme/r/d')).toBeUndefined();
    expect(findOrgByPath(state, 'soc')).toBeUndefined();
    expect(findOrgByPath(state, 'acme//soc')).toBeUndefined();
    expect(orgPath(state, rd)).toBe('acme/r\\/d');

    expect(isWithin(state, acmeSoc.id, acme.id)).toBe(true);
    expect(isWithin(state, acme.id, acme.id)).toBe(true);
    expect(isWithin(state, acme.id, acmeSoc.id)).toBe(false);
    expect(isWithin(state, globexSoc.id, acme.id)).toBe(false);
  });
});
