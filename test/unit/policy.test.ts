import { describe, expect, it } from 'vitest';
import { KNOWN_POLICY_TYPES, PolicyIssue, codePointLength, isHexColor, normalizePolicy, withDomainAllow } from '../../src/policy';

describe('normalizePolicy', () => {
  it.each([
    [{ type: 'readonly', params: ['true'] }],
    [{ type: 'file_transfer', params: ['block_all'] }],
    [{ type: 'clipboard', params: ['allow_to_local', 'block_to_silo'] }],
    [{ type: 'clipboard', params: ['block_all'] }],
    [{ type: 'ad_block', params: ['enable'] }],
    [{ type: 'browser_chrome', params: ['seamless'] }],
    [{ type: 'ribbon_background_color', params: ['#0af'] }],
    [{ type: 'ribbon_text_color', params: ['#00AAff'] }],
    [{ type: 'ribbon_message', params: ['x'.repeat(100)] }],
    [{ type: 'watermark', params: ['anything', 'at all'] }],
  ])('accepts %j unchanged', (entry) => {
    expect(normalizePolicy([entry])).toEqual([entry]);
  });

  it('normalises domains to lower-case punycode', () => {
    expect(normalizePolicy([{ type: 'domain_allow', params: ['Example.COM', 'пример.рф'] }])).toEqual([
      { type: 'domain_allow', params: ['example.com', 'xn--e1afmkfd.xn--p1ai'] },
    ]);
  });

  it.each([
    [{ type: 'readonly', params: ['yes'] }, 'policy[0].params'],
    [{ type: 'readonly', params: ['true', 'false'] }, 'policy[0].params'],
    [{ type: 'file_transfer', params: [] }, 'policy[0].params'],
    [{ type: 'clipboard', params: ['block_all', 'allow_to_local'] }, 'policy[0].params'],
    [{ type: 'clipboard', params: ['allow_to_local', 'allow_to_local'] }, 'policy[0].params[1]'],
    [{ type: 'clipboard', params: ['sideways'] }, 'policy[0].params[0]'],
    [{ type: 'browser_chrome', params: ['hidden'] }, 'policy[0].params'],
    [{ type: 'domain_block', params: ['ok.example', 'not a domain'] }, 'policy[0].params[1]'],
    [{ type: 'domain_allow', params: [] }, 'policy[0].params'],
    [{ type: 'ribbon_background_color', params: ['red'] }, 'policy[0].params'],
    [{ type: 'ribbon_text_color', params: ['#12345'] }, 'policy[0].params'],
    [{ type: 'ribbon_message', params: ['x'.repeat(101)] }, 'policy[0].params[0]'],
  ])('refuses %j at %s', (entry, path) => {
    const result = normalizePolicy([entry]);
    expect(result).toBeInstanceOf(PolicyIssue);
    expect((result as PolicyIssue).path).toBe(path);
  });

  it('counts the ribbon message in characters, not UTF-16 units', () => {
    const hundredEmoji = '🛡'.repeat(100);
    expect(hundredEmoji.length).toBe(200);
    expect(codePointLength(hundredEmoji)).toBe(100);
    expect(normalizePolicy([{ type: 'ribbon_message', params: [hundredEmoji] }])).not.toBeInstanceOf(PolicyIssue);
  });

  it('names the failing entry by position', () => {
    const result = normalizePolicy(
      [
        { type: 'readonly', params: ['true'] },
        { type: 'ad_block', params: ['maybe'] },
      ],
      'defaults',
    );
    expect(result).toEqual(new PolicyIssue('defaults[1].params', 'must be exactly one of enable, disable', 'policyChoice', ['enable, disable']));
    expect(result).toMatchObject({ code: 'policyChoice', params: ['defaults[1].params', 'enable, disable'] });
  });

  it.each([
    [{ type: 'clipboard', params: ['allow_to_local', 'allow_to_local'] }, 'policyRepeat', ['policy[0].params[1]', 'allow_to_local'], 'repeats allow_to_local'],
    [
      { type: 'clipboard', params: ['block_all', 'allow_to_local'] },
      'policyExclusive',
      ['policy[0].params', 'block_all'],
      'cannot combine block_all with other values',
    ],
    [
      { type: 'clipboard', params: [] },
      'policyAtLeastOne',
      ['policy[0].params', 'block_all, allow_all, allow_to_local, block_to_silo'],
      'must hold at least one of block_all, allow_all, allow_to_local, block_to_silo',
    ],
    [
      { type: 'clipboard', params: ['sideways'] },
      'notOneOf',
      ['policy[0].params[0]', 'block_all, allow_all, allow_to_local, block_to_silo'],
      'must be one of block_all, allow_all, allow_to_local, block_to_silo',
    ],
    [{ type: 'domain_allow', params: [] }, 'policyNoDomain', ['policy[0].params'], 'must hold at least one domain'],
    [
      { type: 'domain_block', params: ['not a domain'] },
      'policyBadDomain',
      ['policy[0].params[0]', '"not a domain"'],
      'is not a valid domain name: "not a domain"',
    ],
    [{ type: 'ribbon_text_color', params: ['red'] }, 'policyColor', ['policy[0].params'], 'must be one colour written #rgb or #rrggbb'],
    [{ type: 'ribbon_message', params: [] }, 'policyOneText', ['policy[0].params'], 'must be exactly one text'],
    [{ type: 'ribbon_message', params: ['x'.repeat(101)] }, 'tooLong', ['policy[0].params[0]', '100'], 'must be at most 100 characters'],
  ])('refuses %j with code %s, its params and English words', (entry, code, params, reason) => {
    expect(normalizePolicy([entry])).toMatchObject({ code, params, reason });
  });

  it('a PolicyIssue built without a code is the generic invalid', () => {
    expect(new PolicyIssue('domain_allow', 'is empty')).toMatchObject({ code: 'invalid', params: ['domain_allow'], reason: 'is empty' });
  });

  it('covers every documented type', () => {
    expect(KNOWN_POLICY_TYPES).toEqual([
      'readonly',
      'file_transfer',
      'clipboard',
      'ad_block',
      'browser_chrome',
      'domain_allow',
      'domain_block',
      'ribbon_background_color',
      'ribbon_text_color',
      'ribbon_message',
    ]);
  });
});

describe('isHexColor', () => {
  it.each([
    ['#fff', true],
    ['#A0b1C2', true],
    ['fff', false],
    ['#ffff', false],
    ['#ggg', false],
    ['#1234567', false],
  ])('%s: %s', (value, expected) => {
    expect(isHexColor(value)).toBe(expected);
  });
});

describe('withDomainAllow', () => {
  it('adds one entry for the host', () => {
    expect(withDomainAllow([{ type: 'readonly', params: ['true'] }], 'evil.example')).toEqual([
      { type: 'readonly', params: ['true'] },
      { type: 'domain_allow', params: ['evil.example'] },
    ]);
  });

  it('adds nothing when an entry already allows the host', () => {
    const policy = [{ type: 'domain_allow', params: ['other.example', 'evil.example'] }];
    expect(withDomainAllow(policy, 'evil.example')).toEqual(policy);
  });

  it('adds its own entry when other allow entries do not name the host', () => {
    const policy = [{ type: 'domain_allow', params: ['other.example'] }];
    expect(withDomainAllow(policy, 'evil.example')).toHaveLength(2);
  });
});
