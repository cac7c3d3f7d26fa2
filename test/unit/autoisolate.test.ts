/**
 * Isolate by policy, the pure room (src/autoisolate): how domains match, the network rules
 * a configuration makes, and how the landing page tells a navigation the rules sent from
 * one a page planted. The rules' effect in the browser is end to end (test/e2e/autoisolate).
 */
import { describe, expect, it } from 'vitest';
import {
  AUTO_ISOLATE_LIMITS,
  autoIsolateOf,
  buildRules,
  domainEntryOf,
  fromSiteOf,
  isDomainEntry,
  landingOf,
  matchesDomain,
  newKey,
  reasonOf,
  substitutionOf,
  toDomainsAccess,
  type AutoIsolate,
  type NetRule,
  type RuleContext,
} from '../../src/autoisolate';

const PAGE = 'chrome-extension://abc/isolate.html';
const KEY = '0123456789abcdef0123456789abcdef';
const CONTEXT: RuleContext = { page: PAGE, key: KEY, exempt: ['https://svc.example', 'https://launch.example:8443'], access: { all: true, to: true } };
const config = (value: Partial<AutoIsolate>): AutoIsolate => autoIsolateOf(value);

describe('domains', () => {
  it('match exactly or as subdomains, never by substring', () => {
    expect(matchesDomain('example.com', 'example.com')).toBe(true);
    expect(matchesDomain('a.b.example.com', 'example.com')).toBe(true);
    expect(matchesDomain('badexample.com', 'example.com')).toBe(false);
    expect(matchesDomain('example.com.evil.net', 'example.com')).toBe(false);
    expect(matchesDomain('example.co', 'example.com')).toBe(false);
    expect(matchesDomain('127.0.0.1', '127.0.0.1')).toBe(true);
    expect(matchesDomain('localhost', '127.0.0.1')).toBe(false);
  });

  it('an entry is a host name in the browser form; what is typed is brought to it', () => {
    expect(isDomainEntry('outlook.office.com')).toBe(true);
    expect(isDomainEntry('127.0.0.1')).toBe(true);
    for (const bad of [
      'Outlook.office.com',
      'https://a.example',
      'a.example/path',
      'a.example:443',
      '*.a.example',
      '',
      ' a.example',
      'a..example',
      'пример.рф',
    ]) {
      expect(isDomainEntry(bad), bad).toBe(false);
    }
    expect(domainEntryOf('  https://Outlook.Office.com/mail/inbox?x=1 ')).toBe('outlook.office.com');
    expect(domainEntryOf('*.example.org')).toBe('example.org');
    expect(domainEntryOf('пример.рф')).toBe('xn--e1afmkfd.xn--p1ai');
    expect(domainEntryOf('not a host')).toBeNull();
    expect(domainEntryOf('a.example:8080')).toBeNull();
  });

  it('the popup knows a from site by the current tab, web pages only', () => {
    const on = config({ from: ['office.com'] });
    expect(fromSiteOf('https://outlook.office.com/mail/', on)).toBe('office.com');
    expect(fromSiteOf('https://office.com.evil.example/', on)).toBeUndefined();
    expect(fromSiteOf('chrome-extension://office.com/popup.html', on)).toBeUndefined();
    expect(fromSiteOf(undefined, on)).toBeUndefined();
  });
});

describe('buildRules', () => {
  it('makes nothing when nothing is listed to isolate (except alone stops nothing)', () => {
    expect(buildRules(config({}), CONTEXT)).toEqual([]);
    expect(buildRules(config({ except: ['corp.example'], ask: true }), CONTEXT)).toEqual([]);
  });

  it('from: one redirect per site, for main frames it starts to other sites, to the landing page with its id and key', () => {
    const rules = buildRules(config({ from: ['outlook.office.com', 'servicenow.example'] }), CONTEXT);
    const redirects = rules.filter((rule) => rule.action.type === 'redirect');
    expect(redirects).toEqual([
      {
        id: 100,
        priority: 2,
        action: { type: 'redirect', redirect: { regexSubstitution: `${PAGE}#k=${KEY}&r=100&u=\\0` } },
        condition: {
          initiatorDomains: ['outlook.office.com'],
          excludedRequestDomains: ['outlook.office.com'],
          regexFilter: '^https?://.*',
          resourceTypes: ['main_frame'],
        },
      },
      {
        id: 103,
        priority: 2,
        action: { type: 'redirect', redirect: { regexSubstitution: `${PAGE}#k=${KEY}&r=103&u=\\0` } },
        condition: {
          initiatorDomains: ['servicenow.example'],
          excludedRequestDomains: ['servicenow.example'],
          regexFilter: '^https?://.*',
          resourceTypes: ['main_frame'],
        },
      },
    ]);
    expect(rules.some((rule) => rule.action.type === 'block')).toBe(false);
  });

  it('the service, the launch origin and except domains are allowed above everything', () => {
    const rules = buildRules(config({ to: ['evil.example'], except: ['corp.example'] }), CONTEXT);
    const allows = rules.filter((rule) => rule.action.type === 'allow');
    expect(allows.map((rule) => [rule.priority, rule.condition])).toEqual([
      [4, { urlFilter: '|https://svc.example/', resourceTypes: ['main_frame'] }],
      [4, { urlFilter: '|https://launch.example:8443/', resourceTypes: ['main_frame'] }],
      [4, { requestDomains: ['corp.example'], resourceTypes: ['main_frame'] }],
    ]);
    expect(Math.max(...rules.filter((rule) => rule.action.type !== 'allow').map((rule) => rule.priority))).toBeLessThan(4);
  });

  it('without host access, the same navigations are blocked above the redirect (http loopback excepted, it is always granted)', () => {
    const rules = buildRules(config({ from: ['mail.example'], to: ['evil.example'] }), { ...CONTEXT, access: { all: false, to: false } });
    const blocks = rules.filter((rule) => rule.action.type === 'block');
    expect(blocks.map((rule) => [rule.id, rule.priority, rule.condition])).toEqual([
      [11, 3, { requestDomains: ['evil.example'], urlFilter: '|https://', resourceTypes: ['main_frame'] }],
      [12, 3, { requestDomains: ['evil.example'], urlFilter: '|http://', excludedRequestDomains: ['127.0.0.1', 'localhost'], resourceTypes: ['main_frame'] }],
      [101, 3, { initiatorDomains: ['mail.example'], excludedRequestDomains: ['mail.example'], urlFilter: '|https://', resourceTypes: ['main_frame'] }],
      [
        102,
        3,
        {
          initiatorDomains: ['mail.example'],
          excludedRequestDomains: ['mail.example', '127.0.0.1', 'localhost'],
          urlFilter: '|http://',
          resourceTypes: ['main_frame'],
        },
      ],
    ]);
    // Access to the to domains alone covers the to rule, not the from rules.
    const toOnly = buildRules(config({ from: ['mail.example'], to: ['evil.example'] }), { ...CONTEXT, access: { all: false, to: true } });
    expect(toOnly.filter((rule) => rule.action.type === 'block').map((rule) => rule.id)).toEqual([101, 102]);
  });

  it('at the lists’ limits the rules stay inside the browser’s: unique ids, at most one regular expression per from site', () => {
    const many = (n: number, tld: string): string[] => Array.from({ length: n }, (_, i) => `d${String(i)}.${tld}`);
    const full = config({
      from: many(AUTO_ISOLATE_LIMITS.from, 'from'),
      to: many(AUTO_ISOLATE_LIMITS.to, 'to'),
      except: many(AUTO_ISOLATE_LIMITS.except, 'ex'),
    });
    const rules = buildRules(full, { ...CONTEXT, access: { all: false, to: false } });
    expect(new Set(rules.map((rule) => rule.id)).size).toBe(rules.length);
    // Chrome: 5,000 dynamic rules (its safe-rule cap), 1,000 of them regular expressions.
    expect(rules.length).toBeLessThanOrEqual(5000);
    expect(rules.filter((rule) => rule.condition.regexFilter !== undefined).length).toBe(AUTO_ISOLATE_LIMITS.from + 1);
  });

  it('asks host access for every site (from) or for each to domain with its subdomains', () => {
    expect(toDomainsAccess(config({ to: ['evil.example'] }))).toEqual(['http://*.evil.example/*', 'https://*.evil.example/*']);
  });

  it('gives every rule set a new 128-bit key', () => {
    const keys = new Set(Array.from({ length: 50 }, () => newKey()));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/u);
  });
});

describe('the landing page: a navigation the rules sent, or one planted', () => {
  const on = config({ from: ['mail.example'], to: ['evil.example'], except: ['corp.example'] });
  const installed: NetRule[] = buildRules(on, CONTEXT);
  const hash = (rule: number, url: string, key = KEY): string => `#k=${key}&r=${String(rule)}&u=${url}`;

  it('reads the fragment a rule writes, and nothing else', () => {
    expect(landingOf(hash(100, 'https://x.example/a?b=1&c=#d'))).toEqual({ key: KEY, rule: 100, url: 'https://x.example/a?b=1&c=#d' });
    for (const bad of [
      '',
      '#',
      `#k=${KEY}&r=100`,
      `#k=${KEY.toUpperCase()}&r=100&u=https://x.example/`,
      `#k=${KEY}&r=100&u=javascript:alert(1)`,
      `#r=100&k=${KEY}&u=https://x/`,
    ]) {
      expect(landingOf(bad), bad).toBeNull();
    }
    expect(substitutionOf(PAGE, KEY, 7)).toBe(`${PAGE}#k=${KEY}&r=7&u=\\0`);
  });

  it('says why for a navigation the installed rules sent', () => {
    const reason = (rule: number, url: string, key = KEY) => {
      const landing = landingOf(hash(rule, url, key));
      return landing === null ? 'unread' : reasonOf(landing, installed, CONTEXT);
    };
    expect(reason(100, 'https://phish.example/login')).toEqual({ from: 'mail.example' });
    expect(reason(10, 'https://a.evil.example/')).toEqual({ to: 'evil.example' });
    // From a from site to a watched domain: the watched domain wins (never opened on this computer).
    expect(reason(100, 'https://evil.example/')).toEqual({ to: 'evil.example' });
    // Planted: another key, a rule that does not exist or does not redirect, a target that rule would not stop.
    expect(reason(100, 'https://phish.example/', 'f'.repeat(32))).toBeNull();
    expect(reason(103, 'https://phish.example/')).toBeNull();
    expect(reason(101, 'https://phish.example/')).toBeNull();
    expect(reason(10, 'https://phish.example/')).toBeNull();
    expect(reason(100, 'https://www.mail.example/')).toBeNull();
    // Rules since replaced (a change of settings writes a new key): the old key is worth nothing.
    const replaced = buildRules(config({ from: ['other.example'] }), { ...CONTEXT, key: 'e'.repeat(32) });
    const landing = landingOf(hash(100, 'https://phish.example/'));
    expect(landing && reasonOf(landing, replaced, CONTEXT)).toBeNull();
  });
});
