/**
 * The fast paths of the scanner for the usual hosts and for runs that are no IPv6 address:
 * plainHostEnd matches a host part by part (a part ends at a bracketed dot) and notes where
 * the bracketed dots are, and an IPv6 run ends at a dot before its second colon. They must
 * give what the general scan gives: the answers here are those of the scanner before them.
 */
import { describe, expect, it } from 'vitest';
import { defang, refang } from '../../src/fang';

describe('plain hosts, part by part', () => {
  it.each([
    // input, refanged, defanged
    ['evil-host[.]example(.)co[dot]uk/x', 'evil-host.example.co.uk/x', 'evil-host[.]example(.)co[dot]uk/x'],
    ['x[DoT]y[.)com', 'x.y.com', 'x[DoT]y[.)com'],
    ['sub.evil[.]example[.]com', 'sub.evil.example.com', 'sub[.]evil[.]example[.]com'],
    ['hxxps://a[.]b[.]c(.)d/e', 'https://a.b.c.d/e', 'hxxps://a[.]b[.]c(.)d/e'],
    ['user[@]mail[.]example[.]org', 'user@mail.example.org', 'user[@]mail[.]example[.]org'],
    // a bracketed dot that no label follows ends the host before it
    ['a[.].b', 'a[.].b', 'a[.].b'],
    ['a.[.]b', 'a.[.]b', 'a.[.]b'],
    ['a[.]b.', 'a[.]b.', 'a[.]b.'],
    ['a[.]', 'a[.]', 'a[.]'],
  ])('%j', (input, refanged, defanged) => {
    expect(refang(input)).toBe(refanged);
    expect(defang(input)).toBe(defanged);
  });

  it('notes every bracketed dot of a long host', () => {
    const labels = Array.from({ length: 40 }, (_, k) => `l${k}`);
    expect(refang(`${labels.join('[.]')}.com`)).toBe(`${labels.join('.')}.com`);
    expect(refang(`hxxp://${labels.join('(.)')}[.]com/`)).toBe(`http://${labels.join('.')}.com/`);
  });
});

describe('IPv6 runs and dots', () => {
  it.each([
    ['[:]:.[,]https://', '::.[,]https://', '[:]:.[,]hxxps://'],
    ['2001[:]db8[:][:]1.', '2001:db8::1.', '2001[:]db8[:][:]1.'],
    ['::ffff[:]1.2.3[.]4', '::ffff:1.2.3.4', '::ffff[:]1[.]2[.]3[.]4'],
    ['12.34.56[.]78', '12.34.56.78', '12[.]34[.]56[.]78'],
    ['1.2[:][:]3', '1.2[:][:]3', '1.2[:][:]3'],
  ])('%j', (input, refanged, defanged) => {
    expect(refang(input)).toBe(refanged);
    expect(defang(input)).toBe(defanged);
  });
});
