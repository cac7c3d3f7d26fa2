/**
 * The static egress location lookup.
 *
 * Two forms, as the service describes them:
 * - grouped: location names by region, for pickers;
 * - detailed: `{ name, connectivity, protocol }` for each grouped name that the
 *   canonical location data knows; a name the canonical data lacks is omitted from the
 *   detailed form entirely (it may still be offered by name).
 *
 * Cities named publicly: New York City, Frankfurt, Singapore, Sao Paulo, Dubai,
 * Johannesburg. Connectivity spellings beyond `datacenter` and `isp` are not known on
 * the wire, so none other is used here. A deployment whose service knows more
 * locations extends EGRESS_REGIONS and CANONICAL_LOCATIONS; nothing else changes.
 */

export const REGION_NAMES = ['North America', 'Central & South America', 'Europe', 'Middle East & Africa', 'Asia-Pacific'] as const;

/** One of REGION_NAMES. */
export type RegionName = (typeof REGION_NAMES)[number];

/** How an egress location connects: through a datacenter or a consumer ISP. */
export type Connectivity = 'datacenter' | 'isp';
/** The IP versions an egress location offers. */
export type EgressProtocol = 'ipv4' | 'ipv6';

/** An egress location as the detailed form describes it. */
export interface EgressLocation {
  readonly name: string;
  readonly connectivity: readonly Connectivity[];
  readonly protocol: readonly EgressProtocol[];
}

/** Location names grouped by region: the grouped form. */
export const EGRESS_REGIONS: Readonly<Record<RegionName, readonly string[]>> = {
  'North America': ['New York City', 'Los Angeles', 'Toronto'],
  'Central & South America': ['Sao Paulo', 'Mexico City'],
  Europe: ['Frankfurt', 'London', 'Amsterdam'],
  'Middle East & Africa': ['Dubai', 'Johannesburg'],
  'Asia-Pacific': ['Singapore', 'Tokyo', 'Sydney'],
};

/** The canonical location data: only these names have a detailed entry. */
const CANONICAL_LOCATIONS: Readonly<Record<string, Omit<EgressLocation, 'name'>>> = {
  'New York City': { connectivity: ['datacenter', 'isp'], protocol: ['ipv4', 'ipv6'] },
  'Los Angeles': { connectivity: ['datacenter'], protocol: ['ipv4'] },
  Toronto: { connectivity: ['datacenter'], protocol: ['ipv4'] },
  'Sao Paulo': { connectivity: ['datacenter', 'isp'], protocol: ['ipv4'] },
  Frankfurt: { connectivity: ['datacenter', 'isp'], protocol: ['ipv4', 'ipv6'] },
  London: { connectivity: ['datacenter', 'isp'], protocol: ['ipv4', 'ipv6'] },
  Dubai: { connectivity: ['datacenter'], protocol: ['ipv4'] },
  Johannesburg: { connectivity: ['datacenter'], protocol: ['ipv4'] },
  Singapore: { connectivity: ['datacenter', 'isp'], protocol: ['ipv4', 'ipv6'] },
  Tokyo: { connectivity: ['datacenter'], protocol: ['ipv4', 'ipv6'] },
  Sydney: { connectivity: ['datacenter'], protocol: ['ipv4'] },
  // Mexico City and Amsterdam are offered by name but are not in the canonical data.
};

/**
 * The detailed form, grouped by region; names absent from the canonical data are left out.
 * Free of side effects (the annotation tells the bundler): a bundle that never reads
 * EGRESS_DETAILED, such as the service worker's, neither builds it nor carries
 * CANONICAL_LOCATIONS.
 */
/* @__NO_SIDE_EFFECTS__ */
function detailedOf(region: RegionName): readonly EgressLocation[] {
  return EGRESS_REGIONS[region].flatMap((name) => {
    const canonical = Object.hasOwn(CANONICAL_LOCATIONS, name) ? CANONICAL_LOCATIONS[name] : undefined;
    return canonical ? [{ name, ...canonical }] : [];
  });
}

/** The detailed form, grouped by region; names absent from the canonical data are left out. */
export const EGRESS_DETAILED: Readonly<Record<RegionName, readonly EgressLocation[]>> = {
  'North America': detailedOf('North America'),
  'Central & South America': detailedOf('Central & South America'),
  Europe: detailedOf('Europe'),
  'Middle East & Africa': detailedOf('Middle East & Africa'),
  'Asia-Pacific': detailedOf('Asia-Pacific'),
};

const KNOWN_NAMES: ReadonlySet<string> = new Set<string>([...REGION_NAMES, ...REGION_NAMES.flatMap((region) => EGRESS_REGIONS[region])]);

/** Every valid `egress_region` value: the region names and the city names. */
export const EGRESS_NAMES: readonly string[] = /* @__PURE__ */ Array.from(KNOWN_NAMES);

/** True when `name` is a region or a city of the lookup (exact spelling). */
export function isEgressLocation(name: string): boolean {
  return KNOWN_NAMES.has(name);
}

/** The region a city belongs to, the region itself for a region name, or undefined. */
export function regionOf(name: string): RegionName | undefined {
  return REGION_NAMES.find((region) => region === name || EGRESS_REGIONS[region].includes(name));
}
