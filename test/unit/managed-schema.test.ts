/**
 * public/managed_schema.json, the schema Chrome and Edge read for storage.managed,
 * checked against Chrome's rules for extension policy schemas (a subset of JSON Schema)
 * and against the settings' zod shapes, so that every value an administrator can
 * write is one the extension accepts, and every setting can be set by policy.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { DEFAULT_SETTINGS, SETTING_KEYS, parsePartialSettings, settingShapes } from '../../src/settings/schema';
import { MANAGED_TOKEN_KEY } from '../../src/settings/store';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const SCHEMA_PATH = resolve(import.meta.dirname, '../../public/managed_schema.json');
const schema = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as JsonObject;

const CHROME_TYPES = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean']);
/** The attributes Chrome's policy schema parser knows; anything else is a mistake here. */
const CHROME_ATTRIBUTES = new Set([
  'type',
  'title',
  'description',
  'properties',
  'additionalProperties',
  'patternProperties',
  'required',
  'items',
  'enum',
  'minimum',
  'maximum',
  'pattern',
  'id',
  '$ref',
  'sensitiveValue',
]);

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every (sub)schema with its path, depth first. */
function walk(node: JsonObject, path: string, visit: (node: JsonObject, path: string) => void): void {
  visit(node, path);
  const { properties, patternProperties, additionalProperties, items } = node;
  if (isObject(properties)) for (const [key, child] of Object.entries(properties)) if (isObject(child)) walk(child, `${path}.${key}`, visit);
  if (isObject(patternProperties)) for (const [key, child] of Object.entries(patternProperties)) if (isObject(child)) walk(child, `${path}[/${key}/]`, visit);
  if (isObject(additionalProperties)) walk(additionalProperties, `${path}.*`, visit);
  if (isObject(items)) walk(items, `${path}[]`, visit);
}

/** Chrome's rules, one message per violation. */
function chromeRuleViolations(root: JsonObject): string[] {
  const problems: string[] = [];
  if (root['type'] !== 'object') problems.push('the top level must have type "object"');
  if (!isObject(root['properties'])) problems.push('the top level must have "properties"');
  const ids = new Set<string>();
  walk(root, '$', (node) => {
    if (typeof node['id'] === 'string') ids.add(node['id']);
  });
  walk(root, '$', (node, path) => {
    for (const key of Object.keys(node)) if (!CHROME_ATTRIBUTES.has(key)) problems.push(`${path}: unknown attribute "${key}"`);
    const ref = node['$ref'];
    if (ref !== undefined) {
      if (typeof ref !== 'string' || !ids.has(ref)) problems.push(`${path}: $ref ${JSON.stringify(ref)} names no schema id`);
      return;
    }
    const type = node['type'];
    if (typeof type !== 'string' || !CHROME_TYPES.has(type)) {
      problems.push(`${path}: type ${JSON.stringify(type)} is not one of ${[...CHROME_TYPES].join(', ')}`);
      return;
    }
    if (type === 'array' && !isObject(node['items'])) problems.push(`${path}: an array needs "items"`);
    if (type !== 'array' && node['items'] !== undefined) problems.push(`${path}: "items" on a ${type}`);
    if (type !== 'object' && (node['properties'] !== undefined || node['additionalProperties'] !== undefined))
      problems.push(`${path}: properties on a ${type}`);
    if (type === 'object' && node['properties'] !== undefined && !isObject(node['properties'])) problems.push(`${path}: "properties" must be an object`);
    const values = node['enum'];
    if (values !== undefined) {
      if (!Array.isArray(values) || values.length === 0) problems.push(`${path}: "enum" must be a non-empty list`);
      else if (!['string', 'integer'].includes(type)) problems.push(`${path}: Chrome supports "enum" on string and integer only`);
      else if (values.some((v) => (type === 'string' ? typeof v !== 'string' : !Number.isInteger(v))))
        problems.push(`${path}: an "enum" value is not a ${type}`);
    }
    if (node['sensitiveValue'] !== undefined && typeof node['sensitiveValue'] !== 'boolean') problems.push(`${path}: "sensitiveValue" must be a boolean`);
    for (const text of ['title', 'description'])
      if (node[text] !== undefined && typeof node[text] !== 'string') problems.push(`${path}: "${text}" must be text`);
  });
  return problems;
}

/** Validates a value the way Chrome does before handing it to storage.managed (types, enums, items, properties). */
function chromeAccepts(node: JsonObject, value: Json, path = '$'): string[] {
  const type = node['type'];
  const typeOk =
    (type === 'object' && isObject(value)) ||
    (type === 'array' && Array.isArray(value)) ||
    (type === 'string' && typeof value === 'string') ||
    (type === 'boolean' && typeof value === 'boolean') ||
    (type === 'integer' && Number.isInteger(value)) ||
    (type === 'number' && typeof value === 'number');
  if (!typeOk) return [`${path}: ${JSON.stringify(value)} is not of type ${JSON.stringify(type)}`];
  const values = node['enum'];
  if (Array.isArray(values) && !values.includes(value)) return [`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(values)}`];
  const items = node['items'];
  if (Array.isArray(value) && isObject(items)) return value.flatMap((item, index) => chromeAccepts(items, item, `${path}[${index}]`));
  const properties = node['properties'];
  if (isObject(value) && isObject(properties)) {
    return Object.entries(value).flatMap(([key, child]) => {
      const sub = properties[key];
      return isObject(sub) ? chromeAccepts(sub, child, `${path}.${key}`) : [`${path}.${key}: not in the schema`];
    });
  }
  return [];
}

/** The JSON Schema of a zod shape, with nullable unwrapped (a policy cannot carry null). */
function zodJson(shape: z.ZodMiniType): JsonObject {
  const json = z.toJSONSchema(shape, { io: 'input', unrepresentable: 'any' }) as JsonObject;
  return unwrapNullable(json);
}

function unwrapNullable(node: JsonObject): JsonObject {
  const anyOf = node['anyOf'];
  if (Array.isArray(anyOf)) {
    const real = anyOf.filter((option) => isObject(option) && option['type'] !== 'null');
    if (real.length === 1 && isObject(real[0])) return unwrapNullable(real[0]);
  }
  return node;
}

/** Where the managed schema and the zod shape disagree on what a value may be. */
function shapeMismatches(managed: JsonObject, expected: JsonObject, path: string): string[] {
  const want = expected['type'];
  const have = managed['type'];
  const typeOk = have === want || (want === 'number' && have === 'integer');
  if (!typeOk) return [`${path}: managed type ${JSON.stringify(have)}, the setting is ${JSON.stringify(want)}`];
  const problems: string[] = [];
  const wantEnum = expected['enum'];
  const haveEnum = managed['enum'];
  if (Array.isArray(wantEnum)) {
    if (!Array.isArray(haveEnum)) problems.push(`${path}: the setting allows only ${JSON.stringify(wantEnum)}; the schema should list them in "enum"`);
    else if (JSON.stringify([...haveEnum].sort()) !== JSON.stringify([...wantEnum].sort()))
      problems.push(`${path}: enum ${JSON.stringify(haveEnum)} differs from the setting's ${JSON.stringify(wantEnum)}`);
  }
  if (want === 'array') {
    const [haveItems, wantItems] = [managed['items'], expected['items']];
    if (isObject(haveItems) && isObject(wantItems)) problems.push(...shapeMismatches(haveItems, unwrapNullable(wantItems), `${path}[]`));
  }
  if (want === 'object') {
    const haveProps = isObject(managed['properties']) ? managed['properties'] : {};
    const wantProps = isObject(expected['properties']) ? expected['properties'] : {};
    for (const key of Object.keys(haveProps)) if (!Object.hasOwn(wantProps, key)) problems.push(`${path}.${key}: in the schema, but the setting refuses it`);
    for (const [key, wantChild] of Object.entries(wantProps)) {
      const haveChild = haveProps[key];
      if (!isObject(haveChild)) problems.push(`${path}.${key}: missing from the schema`);
      else if (isObject(wantChild)) problems.push(...shapeMismatches(haveChild, unwrapNullable(wantChild), `${path}.${key}`));
    }
  }
  return problems;
}

const properties = schema['properties'] as JsonObject;

/** A policy an administrator might write: one value for every key. */
const EXAMPLE_POLICY: JsonObject = {
  serviceUrl: 'https://isolation.acme.example',
  launchUrl: 'https://launch.acme.example',
  username: 'analyst@acme.example',
  org: '',
  token: 'example-admin-token',
  rememberToken: false,
  policy: [
    { type: 'domain_allow', params: ['acme.example'] },
    { type: 'file_transfer', params: ['block_all'] },
  ],
  maxUses: 5,
  expiry: { preset: '8h', customMinutes: 60 },
  autoDomainAllow: true,
  unwrap: 'ask',
  research: {
    egressRegion: '',
    browserProfile: { os: 'win', browser: 'chrome', timezone: 'Europe/Berlin', languages: 'de-DE,de;q=0.9' },
    availability: [],
    connectivity: [],
  },
  tabPlacement: 'background',
  bulkConfirmThreshold: 10,
  autoIsolate: {
    from: ['outlook.office.com', 'acme.service-now.com'],
    to: ['watched.example'],
    except: ['acme.example', 'login.microsoftonline.com'],
    ask: false,
  },
};

describe('public/managed_schema.json', () => {
  it("follows Chrome's rules for extension policy schemas", () => {
    expect(chromeRuleViolations(schema)).toEqual([]);
  });

  it('has a property for every setting and for the token, and nothing else', () => {
    const expected = [...SETTING_KEYS, MANAGED_TOKEN_KEY].sort();
    const actual = Object.keys(properties).sort();
    expect({ missing: expected.filter((k) => !actual.includes(k)), extra: actual.filter((k) => !expected.includes(k)) }).toEqual({ missing: [], extra: [] });
  });

  it.each(SETTING_KEYS)("types %s the way the setting's zod shape does", (key) => {
    const managed = properties[key];
    expect(isObject(managed)).toBe(true);
    expect(shapeMismatches(managed as JsonObject, zodJson(settingShapes[key]), key)).toEqual([]);
  });

  it('types the token as text and marks it sensitive (hidden on chrome://policy)', () => {
    expect(properties[MANAGED_TOKEN_KEY]).toMatchObject({ type: 'string', sensitiveValue: true });
  });

  it('gives every top-level property a title and a description for admin consoles', () => {
    const bare = Object.entries(properties).filter(
      ([, node]) => !isObject(node) || typeof node['title'] !== 'string' || typeof node['description'] !== 'string',
    );
    expect(bare.map(([key]) => key)).toEqual([]);
  });

  it('accepts an example policy that the extension accepts too, key by key', () => {
    expect(chromeAccepts(schema, EXAMPLE_POLICY)).toEqual([]);
    const { [MANAGED_TOKEN_KEY]: token, ...settings } = EXAMPLE_POLICY;
    expect(typeof token).toBe('string');
    const { values, issues } = parsePartialSettings(settings);
    expect(issues).toEqual([]);
    expect(Object.keys(values).sort()).toEqual([...SETTING_KEYS].sort());
  });

  it('accepts every default value that a policy can express (all but null)', () => {
    const expressible = Object.fromEntries(Object.entries(DEFAULT_SETTINGS).filter(([, value]) => value !== null)) as JsonObject;
    const research = expressible['research'];
    // browserProfile's default is null: a policy either sets a whole profile or leaves it out.
    if (isObject(research)) expressible['research'] = { ...research, browserProfile: { os: 'linux', browser: 'firefox', timezone: '', languages: '' } };
    expect(chromeAccepts(schema, expressible)).toEqual([]);
    expect(parsePartialSettings(expressible).issues).toEqual([]);
  });

  it('catches the mistakes it is meant to catch', () => {
    expect(chromeRuleViolations({ type: 'object', properties: { a: { type: 'array' } } })).toEqual(['$.a: an array needs "items"']);
    expect(chromeRuleViolations({ type: 'object', properties: { a: { type: 'null' } } })[0]).toMatch(/type "null"/);
    expect(chromeRuleViolations({ type: 'object', properties: { a: { $ref: 'Nope' } } })[0]).toMatch(/names no schema id/);
    expect(chromeRuleViolations({ type: 'object', properties: { a: { id: 'Yes', type: 'string' }, b: { $ref: 'Yes' } } })).toEqual([]);
    expect(chromeRuleViolations({ type: 'array', items: { type: 'string' } })).toContain('the top level must have type "object"');
    expect(shapeMismatches({ type: 'number' }, { type: 'integer' }, 'x')).toHaveLength(1);
    expect(
      shapeMismatches({ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { b: { type: 'string' } } }, 'x'),
    ).toHaveLength(2);
    expect(shapeMismatches({ type: 'string', enum: ['a'] }, { type: 'string', enum: ['a', 'b'] }, 'x')).toHaveLength(1);
  });
});
