/**
 * The proxy list as the page edits it: the organisation's own proxies as rows of text,
 * and the inherited ones apart (they belong to a parent organisation).
 */
import type { ProxyRecord } from '../../api';
import type { ValidationCode } from '../../service/errors';
import type { Proxy, ProxyWarning } from '../../service/values';
import { checkProxies, type ProxyDraft } from '../../service/values';
import { codeText } from '../../i18n/errors';

export interface ProxyRow {
  /** Stable key for rendering. */
  readonly key: number;
  /** The name as loaded: what deleteProxies is given. */
  readonly original: string;
  readonly name: string;
  readonly address: string;
  readonly port: string;
  readonly type: string;
}

export interface InheritedProxy {
  readonly name: string;
  readonly address: string;
  readonly port: string;
  readonly type: string;
  readonly from: string;
}

export function splitProxies(records: readonly ProxyRecord[], nextKey: () => number): { own: ProxyRow[]; inherited: InheritedProxy[] } {
  const own: ProxyRow[] = [];
  const inherited: InheritedProxy[] = [];
  for (const record of records) {
    const fields = {
      name: record.name,
      address: record.location.address,
      port: record.location.port === undefined ? '' : String(record.location.port),
      type: record.location.type ?? '',
    };
    if (typeof record.inherited_from === 'string') inherited.push({ ...fields, from: record.inherited_from });
    else own.push({ ...fields, key: nextKey(), original: record.name });
  }
  return { own, inherited };
}

export interface ProxyFields {
  readonly name: string;
  readonly address: string;
  readonly port: string;
  readonly type: string;
}

/**
 * A row as checkProxies takes it. The port goes as a number when it is digits, and as
 * typed otherwise, so the validation names it; an empty port or type takes the default.
 */
function proxyInputOf(fields: ProxyFields): ProxyDraft {
  const port = fields.port.trim();
  const digits = port !== '' && [...port].every((ch) => ch >= '0' && ch <= '9');
  return {
    name: fields.name.trim(),
    location: {
      address: fields.address.trim(),
      ...(port === '' ? {} : { port: digits ? Number(port) : port }),
      ...(fields.type === '' ? {} : { type: fields.type }),
    },
  };
}

export type Prepared =
  | { readonly ok: true; readonly proxies: Proxy[]; readonly warnings: ProxyWarning[] }
  | {
      readonly ok: false;
      readonly field: string;
      /** The validation code, and its params: the field, then the values of its words. */
      readonly code: ValidationCode;
      readonly params: readonly string[];
      /** The analyst's words for it, field included. */
      readonly text: string;
      readonly index: number | undefined;
    };

/** Validates a list with checkProxies (as the background will); a failure names the field and the row it is in. */
export function prepare(list: readonly ProxyFields[], root = 'proxies'): Prepared {
  const checked = checkProxies(list.map(proxyInputOf), root);
  if (!('field' in checked)) return { ok: true, ...checked };
  const { field, code, details } = checked;
  const params = [field, ...details];
  const match = field.startsWith(`${root}[`) ? Number(field.slice(root.length + 1, field.indexOf(']'))) : Number.NaN;
  return { ok: false, field, code, params, text: codeText(code, params), index: Number.isInteger(match) ? match : undefined };
}
