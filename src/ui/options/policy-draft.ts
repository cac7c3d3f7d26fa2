/**
 * The policy editor's model: the params of each known type (empty = not set), and the
 * entries of other types (licence-specific), kept exactly as they were.
 */
import {
  KNOWN_POLICY_TYPES,
  POLICY_PROBLEMS,
  POLICY_RULES,
  PolicyIssue,
  isKnownPolicyType,
  normalizePolicy,
  type KnownPolicyType,
  type PolicyEntry,
} from '../../policy';

type KnownParams = { readonly [T in KnownPolicyType]: readonly string[] };

export interface PolicyDraft {
  readonly known: KnownParams;
  readonly others: readonly PolicyEntry[];
}

function emptyParams(): Record<KnownPolicyType, readonly string[]> {
  const out = {} as Record<KnownPolicyType, readonly string[]>;
  for (const type of KNOWN_POLICY_TYPES) out[type] = [];
  return out;
}

/**
 * Reads stored entries into the editor. Several domain entries of one type merge into
 * one list (the service reads them as one); for the other known types a later entry
 * replaces an earlier one, as it would override it.
 */
export function draftFromEntries(entries: readonly PolicyEntry[]): PolicyDraft {
  const known = emptyParams();
  const others: PolicyEntry[] = [];
  for (const entry of entries) {
    if (!isKnownPolicyType(entry.type)) {
      others.push(entry);
      continue;
    }
    known[entry.type] = POLICY_RULES[entry.type].kind === 'domains' ? [...new Set([...known[entry.type], ...entry.params])] : [...entry.params];
  }
  return { known, others };
}

/** The entries to save: one per known type that is set, in the table's order, then the others untouched. */
export function entriesFromDraft(draft: PolicyDraft): PolicyEntry[] {
  const entries: PolicyEntry[] = [];
  for (const type of KNOWN_POLICY_TYPES) {
    const params = draft.known[type];
    if (params.length > 0) entries.push({ type, params: [...params] });
  }
  return [...entries, ...draft.others];
}

/** The entry index a PolicyIssue path points at (`policy[3].params[0]` -> 3), or undefined. */
export function entryIndexOf(path: string, root = 'policy'): number | undefined {
  if (!path.startsWith(`${root}[`)) return undefined;
  const end = path.indexOf(']', root.length + 1);
  if (end < 0) return undefined;
  const index = Number(path.slice(root.length + 1, end));
  return Number.isInteger(index) && index >= 0 ? index : undefined;
}

/** Normalises one domain as the policy rules do (lower case, punycode), or returns the issue. */
export function normalizeDomain(type: 'domain_allow' | 'domain_block', text: string): string | PolicyIssue {
  const result = normalizePolicy([{ type, params: [text.trim()] }], type);
  if (result instanceof PolicyIssue) return result;
  return result[0]?.params[0] ?? new PolicyIssue(`${type}.params`, POLICY_PROBLEMS.policyNoDomain, 'policyNoDomain');
}

/**
 * Clipboard choices honour the exclusive values: choosing block_all or allow_all drops
 * every other value; choosing any other value drops the exclusive ones. The result
 * follows the rule's order.
 */
export function toggleMulti(
  current: readonly string[],
  value: string,
  on: boolean,
  rule: { readonly values: readonly string[]; readonly exclusive: readonly string[] },
): string[] {
  let next: string[];
  if (!on) next = current.filter((item) => item !== value);
  else if (rule.exclusive.includes(value)) next = [value];
  else next = [...current.filter((item) => !rule.exclusive.includes(item)), value];
  return rule.values.filter((item) => next.includes(item));
}
