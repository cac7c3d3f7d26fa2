/**
 * Validation of what clients send, with zod. Every wire key comes from src/api/wire.ts,
 * the value lists from src/api/params.ts, and the address, URL and time zone checks
 * from the project's shared modules. Policy entries are checked against src/policy by
 * the command handlers (see commands.ts); here only their shape.
 */
import { z } from 'zod';
import { BROWSER_NAMES, BROWSER_OS, PROXY_TYPES, isIanaTimeZone } from '../../src/api/params';
import { CONTEXT_DATA_KEYS, SESSION_TYPES } from '../../src/service/wire';
import { isEgressLocation } from '../../src/egress';
import { parseCidr, parseIp } from '../../src/net/ip';
import { checkTargetUrl } from '../../src/net/url';

const K = CONTEXT_DATA_KEYS;

const HOSTNAME = /^\w(?:[\w-]*\w)?(?:\.\w(?:[\w-]*\w)?)*\.?$/;

/** An absolute http or https URL (a defanged `hxxp://` URL is refused). */
export const targetUrlSchema = z.string().superRefine((value, ctx) => {
  if (!checkTargetUrl(value).ok) ctx.addIssue({ code: 'custom', message: `not an absolute http(s) URL: ${JSON.stringify(value)}` });
});

/** The shape of a policy entry; its params are checked by src/policy's rules. */
export const policyEntrySchema = z.strictObject({ type: z.string().min(1), params: z.array(z.string()) });

const ipOrRangeSchema = z.string().superRefine((value, ctx) => {
  if (parseCidr(value) === null) ctx.addIssue({ code: 'custom', message: `not an IP address or CIDR range: ${JSON.stringify(value)}` });
});

const egressSchema = z.string().superRefine((value, ctx) => {
  if (!isEgressLocation(value)) ctx.addIssue({ code: 'custom', message: `unknown egress location ${JSON.stringify(value)}` });
});

export const browserProfileSchema = z.strictObject({
  os: z.enum(BROWSER_OS),
  browser: z.enum(BROWSER_NAMES),
  timezone: z
    .string()
    .superRefine((value, ctx) => {
      if (!isIanaTimeZone(value)) ctx.addIssue({ code: 'custom', message: `not an IANA timezone name: ${JSON.stringify(value)}` });
    })
    .optional(),
  languages: z.string().min(1).optional(),
});

const oneOrMore = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

/** Value lists are given elsewhere: only the keys and the value kinds are checked. */
export const categoriesSchema = z.strictObject({
  availability: oneOrMore.optional(),
  connectivity: oneOrMore.optional(),
});

/**
 * context_data as create_context and update_context take it. Unknown keys are refused,
 * so a parameter placed wrongly (`url` for `urls`, `max_uses` inside context_data) is
 * reported instead of silently ignored. Cross-field rules are checked by the handler.
 */
export const contextDataSchema = z.strictObject({
  [K.username]: z.string().min(1).optional(),
  [K.org]: z.string().min(1).optional(),
  [K.url]: z.array(targetUrlSchema).length(1).optional(),
  [K.policy]: z.array(policyEntrySchema).optional(),
  [K.restrict_client_ips]: z.array(ipOrRangeSchema).optional(),
  [K.session_type]: z.enum(SESSION_TYPES).optional(),
  [K.egress_region]: egressSchema.optional(),
  [K.browser_profile]: browserProfileSchema.optional(),
  [K.categories]: categoriesSchema.optional(),
});

export type ContextData = z.output<typeof contextDataSchema>;

const proxyAddressSchema = z.string().superRefine((value, ctx) => {
  if (parseIp(value) === null && !HOSTNAME.test(value)) {
    ctx.addIssue({ code: 'custom', message: `not an IP address or host name: ${JSON.stringify(value)}` });
  }
});

export const proxySchema = z.strictObject({
  name: z.string().min(1),
  location: z.strictObject({
    address: proxyAddressSchema,
    port: z.number().int().min(1).max(65535).optional(),
    type: z.enum(PROXY_TYPES).optional(),
  }),
});

export type ProxyRecord = z.output<typeof proxySchema>;

export const maxUsesSchema = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
/** Decoded by decodeExpires from the wire table once the clock is known. */
export const expiresSchema = z.union([z.string(), z.number()]);

function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out;
}

/** One line naming every issue: `context_data.policy[0]: ...; max_uses: ...`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = pathText(issue.path);
      return where === '' ? issue.message : `${where}: ${issue.message}`;
    })
    .join('; ');
}
