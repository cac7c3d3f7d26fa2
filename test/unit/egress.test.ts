import { describe, expect, it } from 'vitest';
import { EGRESS_DETAILED, EGRESS_NAMES, EGRESS_REGIONS, REGION_NAMES, isEgressLocation, regionOf } from '../../src/egress';

describe('egress lookup', () => {
  it.each(['New York City', 'Frankfurt', 'Singapore', 'Sao Paulo', 'Dubai', 'Johannesburg'])('knows the publicly named city %s', (city) => {
    expect(isEgressLocation(city)).toBe(true);
    expect(regionOf(city)).toBeDefined();
  });

  it('accepts region names and rejects near misses', () => {
    expect(isEgressLocation('North America')).toBe(true);
    expect(isEgressLocation('Asia-Pacific')).toBe(true);
    expect(isEgressLocation('new york city')).toBe(false);
    expect(isEgressLocation('Atlantis')).toBe(false);
    expect(isEgressLocation('__proto__')).toBe(false);
  });

  it('omits names absent from the canonical data from the detailed form only', () => {
    const grouped = REGION_NAMES.flatMap((r) => EGRESS_REGIONS[r]);
    const detailed = REGION_NAMES.flatMap((r) => EGRESS_DETAILED[r].map((l) => l.name));
    expect(grouped).toContain('Mexico City');
    expect(detailed).not.toContain('Mexico City');
    expect(detailed.every((name) => grouped.includes(name))).toBe(true);
    for (const region of REGION_NAMES) {
      for (const entry of EGRESS_DETAILED[region]) {
        expect(entry.connectivity.length).toBeGreaterThan(0);
        expect(entry.protocol.length).toBeGreaterThan(0);
      }
    }
  });

  it('lists every name once', () => {
    expect(new Set(EGRESS_NAMES).size).toBe(EGRESS_NAMES.length);
  });
});
