/**
 * Reply schemas. Strict where the spec gives the shape (every field required, with its
 * type); lenient where it does not (unknown keys kept, known keys type-checked when
 * present). A reply that does not fit is a ProtocolError, never a silent `undefined`.
 */
import * as z from 'zod/mini';
import { ProtocolError } from '../service/errors';
import { once } from '../service/once';
import { built, type Parsed, type SchemaOf } from './params';
import { CONTEXT_FIELDS, DELETE_RESULT_KEY, FILE_FIELDS, PROXY_DELETE_KEYS, PROXY_FIELDS } from '../service/wire';

const id = z.string().check(z.minLength(1));

/** create_context's result: the spec gives this shape. */
export const createdContextSchema = z.object({
  browse_context_id: id,
  expires: z.int(),
  max_uses: z.int(),
});
/** create_context's result: the context's id, when it expires (epoch seconds) and how many launches it allows. */
export type CreatedContext = z.infer<typeof createdContextSchema>;

/** get_context / update_context: the project's decided shape, read leniently. */
export const contextDetailsSchema = once(() =>
  z.looseObject({
    [CONTEXT_FIELDS.id]: id,
    [CONTEXT_FIELDS.name]: z.optional(z.nullable(z.string())),
    [CONTEXT_FIELDS.enabled]: z.optional(z.boolean()),
    [CONTEXT_FIELDS.created]: z.optional(z.number()),
    [CONTEXT_FIELDS.expires]: z.optional(z.number()),
    [CONTEXT_FIELDS.maxUses]: z.optional(z.number()),
    [CONTEXT_FIELDS.useCount]: z.optional(z.number()),
    [CONTEXT_FIELDS.contextData]: z.optional(z.record(z.string(), z.unknown())),
  }),
);
/** A context as get_context and update_context return it (unknown keys kept). */
export type ContextDetails = z.infer<ReturnType<typeof contextDetailsSchema>>;

export const deleteResultSchema = once(() => z.looseObject({ [DELETE_RESULT_KEY]: z.boolean() }));

/** listusers: the shape public code shows, read leniently. */
const userSchema = once(() =>
  z.looseObject({
    username: z.string(),
    email: z.optional(z.nullable(z.string())),
    given_name: z.optional(z.nullable(z.string())),
    surname: z.optional(z.nullable(z.string())),
    is_suspended: z.optional(z.boolean()),
    phone: z.optional(
      z.array(
        z.looseObject({
          cc: z.optional(z.nullable(z.string())),
          display: z.optional(z.nullable(z.string())),
          num: z.optional(z.nullable(z.string())),
        }),
      ),
    ),
  }),
);
export const userListSchema = once(() => z.array(userSchema()));
/** One user of listUsers (unknown keys kept). */
export type User = z.infer<ReturnType<typeof userSchema>>;

/** org.get: not shown by the spec; any object. */
export const orgSchema = once(() => z.record(z.string(), z.unknown()));
/** An organisation's record as org.get returns it: any object. */
export type OrgRecord = z.infer<ReturnType<typeof orgSchema>>;

const proxyRecordSchema = once(() =>
  z.looseObject({
    name: z.string(),
    location: z.looseObject({
      address: z.string(),
      port: z.optional(z.int()),
      type: z.optional(z.string()),
    }),
    [PROXY_FIELDS.inheritedFrom]: z.optional(z.string()),
  }),
);
/** One proxy of getProxies; `inherited_from` names the ancestor org of an inherited one. */
export type ProxyRecord = z.infer<ReturnType<typeof proxyRecordSchema>>;

export const proxyListResultSchema = once(() =>
  z.looseObject({
    [PROXY_FIELDS.list]: z.array(proxyRecordSchema()),
    [PROXY_FIELDS.policy]: z.optional(z.unknown()),
  }),
);

/** policy_proxies.delete: the spec gives this shape. */
export const deleteProxiesResultSchema = once(() =>
  z.object({
    [PROXY_DELETE_KEYS.deleted]: z.array(z.string()),
    [PROXY_DELETE_KEYS.notFound]: z.array(z.string()),
  }),
);
/** What deleteProxies returns: the names deleted and the names not found. */
export type DeleteProxiesResult = z.infer<ReturnType<typeof deleteProxiesResultSchema>>;

export const putFileResultSchema = once(() => z.looseObject({ [FILE_FIELDS.putResultKey]: id }));

/** Parses a command's result; a misfit is a ProtocolError naming the command and field. */
export function parseResult<S extends SchemaOf>(schema: S, value: unknown, command: string): Parsed<S> {
  const parsed = built(schema).safeParse(value);
  if (parsed.success) return parsed.data as Parsed<S>;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'result';
  throw new ProtocolError('replyShape', command, where);
}
