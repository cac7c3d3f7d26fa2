/**
 * Policy entries: the rules of each known type, validation that names the failing
 * entry, and the auto_domain_allow rule. Pure; imports nothing from the rest of the
 * project but the host-name helper, so the client, the settings and the UI share it.
 */
import { normalizeHostname } from '../net/host';
import { fillTemplate } from '../net/template';

export interface PolicyEntry {
  readonly type: string;
  readonly params: readonly string[];
}

/** How a known policy type's params are checked. */
export type PolicyRule =
  | { readonly kind: 'choice'; readonly values: readonly string[]; readonly defaultValue?: string }
  | { readonly kind: 'multi'; readonly values: readonly string[]; readonly exclusive: readonly string[] }
  | { readonly kind: 'domains' }
  | { readonly kind: 'color' }
  | { readonly kind: 'text'; readonly maxLength: number };

export const RIBBON_MESSAGE_MAX = 100;
/** Longest policy type name, and longest parameter of a policy entry, accepted anywhere (decisions). */
export const MAX_POLICY_TYPE_LENGTH = 64;
export const MAX_POLICY_PARAM_LENGTH = 4096;

/** The policy types the service documents, and their allowed params. */
export const POLICY_RULES = {
  readonly: { kind: 'choice', values: ['true', 'false'], defaultValue: 'false' },
  file_transfer: { kind: 'choice', values: ['block_all', 'allow_all'] },
  // Several clipboard values combine, but "all" values contradict any other.
  clipboard: {
    kind: 'multi',
    values: ['block_all', 'allow_all', 'allow_to_local', 'block_to_silo'],
    exclusive: ['block_all', 'allow_all'],
  },
  ad_block: { kind: 'choice', values: ['enable', 'disable'] },
  browser_chrome: { kind: 'choice', values: ['standard', 'seamless', 'minimal'], defaultValue: 'standard' },
  domain_allow: { kind: 'domains' },
  domain_block: { kind: 'domains' },
  ribbon_background_color: { kind: 'color' },
  ribbon_text_color: { kind: 'color' },
  ribbon_message: { kind: 'text', maxLength: RIBBON_MESSAGE_MAX },
} as const satisfies Record<string, PolicyRule>;

export type KnownPolicyType = keyof typeof POLICY_RULES;
export const KNOWN_POLICY_TYPES = /* @__PURE__ */ Object.keys(POLICY_RULES) as KnownPolicyType[];

export function isKnownPolicyType(type: string): type is KnownPolicyType {
  return Object.hasOwn(POLICY_RULES, type);
}

/**
 * What can be wrong with a policy entry: a stable code and English words for
 * developers, which follow the path ("policy[0].params must be one of ..."). `$1`.. are
 * the values after the path (the extension translates the code, with the path as its
 * first value).
 */
// English words, for the library and the command; the extension says codes in the analyst's language (wxt.config.ts leaves these out of its worker).
export const POLICY_PROBLEMS = {
  policyChoice: 'must be exactly one of $1',
  policyAtLeastOne: 'must hold at least one of $1',
  notOneOf: 'must be one of $1',
  policyRepeat: 'repeats $1',
  policyExclusive: 'cannot combine $1 with other values',
  policyNoDomain: 'must hold at least one domain',
  policyBadDomain: 'is not a valid domain name: $1',
  policyColor: 'must be one colour written #rgb or #rrggbb',
  policyOneText: 'must be exactly one text',
  tooLong: 'must be at most $1 characters',
  invalid: 'is not valid',
} as const satisfies Record<string, string>;

export type PolicyProblemCode = keyof typeof POLICY_PROBLEMS;

/**
 * A policy problem: where (`policy[2].params[0]`), what in English (`reason`), and as
 * data: `code`, and `params` = the path followed by the values the reason holds.
 * Built without a code, it is the generic `invalid`.
 */
export class PolicyIssue {
  readonly params: readonly string[];
  constructor(
    readonly path: string,
    readonly reason: string,
    readonly code: PolicyProblemCode = 'invalid',
    details: readonly string[] = [],
  ) {
    this.params = [path, ...details];
  }
}

function issue(path: string, code: PolicyProblemCode, ...details: string[]): PolicyIssue {
  const reason = fillTemplate(POLICY_PROBLEMS[code], details);
  return new PolicyIssue(path, reason, code, details);
}

const HEX = new Set('0123456789abcdefABCDEF');

/** True for `#rgb` and `#rrggbb`. */
export function isHexColor(value: string): boolean {
  return (value.length === 4 || value.length === 7) && value.startsWith('#') && [...value.slice(1)].every((ch) => HEX.has(ch));
}

/** Length as the service counts it: in code points, not UTF-16 units. */
export function codePointLength(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

function checkParams(type: KnownPolicyType, params: readonly string[], at: string): readonly string[] | PolicyIssue {
  const rule: PolicyRule = POLICY_RULES[type];
  switch (rule.kind) {
    case 'choice': {
      if (params.length !== 1 || !rule.values.includes(params[0] ?? '')) {
        return issue(`${at}.params`, 'policyChoice', rule.values.join(', '));
      }
      return params;
    }
    case 'multi': {
      if (params.length === 0) return issue(`${at}.params`, 'policyAtLeastOne', rule.values.join(', '));
      const seen = new Set<string>();
      for (const [i, value] of params.entries()) {
        if (!rule.values.includes(value)) return issue(`${at}.params[${i}]`, 'notOneOf', rule.values.join(', '));
        if (seen.has(value)) return issue(`${at}.params[${i}]`, 'policyRepeat', value);
        seen.add(value);
      }
      const exclusive = params.find((value) => rule.exclusive.includes(value));
      if (exclusive !== undefined && params.length > 1) {
        return issue(`${at}.params`, 'policyExclusive', exclusive);
      }
      return params;
    }
    case 'domains': {
      if (params.length === 0) return issue(`${at}.params`, 'policyNoDomain');
      const out: string[] = [];
      for (const [i, value] of params.entries()) {
        const host = normalizeHostname(value);
        if (host === null) return issue(`${at}.params[${i}]`, 'policyBadDomain', JSON.stringify(value.slice(0, 80)));
        out.push(host);
      }
      return out;
    }
    case 'color': {
      if (params.length !== 1 || !isHexColor(params[0] ?? '')) {
        return issue(`${at}.params`, 'policyColor');
      }
      return params;
    }
    case 'text': {
      if (params.length !== 1) return issue(`${at}.params`, 'policyOneText');
      if (codePointLength(params[0] ?? '') > rule.maxLength) {
        return issue(`${at}.params[0]`, 'tooLong', String(rule.maxLength));
      }
      return params;
    }
  }
}

/**
 * Checks policy entries against the rules of their type and normalises them (domains
 * in punycode, lower case). Unknown types pass through untouched: the list of types
 * depends on the licence. Returns the entries, or the first issue.
 */
export function normalizePolicy(entries: readonly PolicyEntry[], path = 'policy'): PolicyEntry[] | PolicyIssue {
  const out: PolicyEntry[] = [];
  for (const [i, entry] of entries.entries()) {
    const at = `${path}[${i}]`;
    if (!isKnownPolicyType(entry.type)) {
      out.push({ type: entry.type, params: [...entry.params] });
      continue;
    }
    const params = checkParams(entry.type, entry.params, at);
    if (params instanceof PolicyIssue) return params;
    out.push({ type: entry.type, params: [...params] });
  }
  return out;
}

/**
 * The auto_domain_allow rule: adds one `domain_allow` entry holding `hostname`, unless
 * an entry already allows exactly that host. Expects normalised entries and hostname.
 */
export function withDomainAllow(entries: readonly PolicyEntry[], hostname: string): PolicyEntry[] {
  const allowed = entries.some((entry) => entry.type === 'domain_allow' && entry.params.includes(hostname));
  return allowed ? [...entries] : [...entries, { type: 'domain_allow', params: [hostname] }];
}
