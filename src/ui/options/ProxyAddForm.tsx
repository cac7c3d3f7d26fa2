/** Adds one proxy to an organisation at once (addProxies), validated before it is sent. */
import { useState } from 'preact/hooks';
import { DEFAULT_PROXY_PORTS, PROXY_TYPES, type ProxyType, type ProxyWarning } from '../../api/params';
import { t } from '../../i18n';
import type { ProtocolValues } from '../../messaging/protocol';
import { errorText } from './errors';
import { Field, NoticeLine, fieldDescription, useFieldIds, type Notice } from './fields';
import { prepare, type ProxyFields } from './proxy-rows';
import type { OptionsState } from './state';

type FieldName = keyof ProxyFields;
const EMPTY: ProxyFields = { name: '', address: '', port: '', type: 'http' };

/** Which input a validation path such as `proxy[0].location.port` points at. */
function fieldOfPath(path: string): FieldName | undefined {
  const last = path.slice(path.lastIndexOf('.') + 1);
  return last === 'name' || last === 'address' || last === 'port' || last === 'type' ? last : undefined;
}

function isProxyType(value: string): value is ProxyType {
  return (PROXY_TYPES as readonly string[]).includes(value);
}

/** The port a type defaults to, shown as the port field's placeholder. */
function defaultPort(type: string): string {
  return String(DEFAULT_PROXY_PORTS[isProxyType(type) ? type : 'http']);
}

export function WarningList({ warnings }: { readonly warnings: readonly ProxyWarning[] }) {
  if (warnings.length === 0) return null;
  return (
    <ul class="warn warnings" aria-label={t('optionsProxyWarnings')}>
      {warnings.map((warning) => (
        <li key={`${warning.proxy}-${warning.code}`}>{warning.message}</li>
      ))}
    </ul>
  );
}

interface Props {
  readonly state: OptionsState;
  /** The organisation, or '' when none is entered. */
  readonly org: string;
  readonly onChanged: (result: ProtocolValues['addProxies']) => void;
}

export function ProxyAddForm({ state, org, onChanged }: Props) {
  const [fields, setFields] = useState<ProxyFields>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [warnings, setWarnings] = useState<readonly ProxyWarning[]>([]);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { name: useFieldIds(), address: useFieldIds(), port: useFieldIds(), type: useFieldIds() };

  function add(event: Event): void {
    event.preventDefault();
    if (busy) return;
    setWarnings([]);
    if (org === '') {
      setErrors({});
      setNotice({ kind: 'error', text: t('optionsProxyOrgMissing') });
      return;
    }
    const prepared = prepare([fields], 'proxy');
    if (!prepared.ok) {
      const text = t('optionsProxyInvalid', [prepared.field, prepared.reason]);
      const field = fieldOfPath(prepared.field);
      setErrors(field === undefined ? {} : { [field]: text });
      setNotice({ kind: 'error', text });
      return;
    }
    setErrors({});
    setWarnings(prepared.warnings);
    setBusy(true);
    void (async () => {
      try {
        const result = await state.connector('addProxies', { org, proxies: prepared.proxies });
        if (result.warnings.length > 0) setWarnings(result.warnings);
        setFields(EMPTY);
        setNotice({ kind: 'ok', text: t('optionsProxyAdded', [prepared.proxies[0]?.name ?? '', org]) });
        onChanged(result);
      } catch (error) {
        setNotice({ kind: 'error', text: errorText(error) });
      } finally {
        setBusy(false);
      }
    })();
  }

  const text = (name: 'name' | 'address' | 'port', label: string, hint?: string) => {
    const fieldIds = ids[name];
    const error = errors[name];
    return (
      <Field ids={fieldIds} label={label} hint={hint} error={error}>
        <input
          id={fieldIds.input}
          type="text"
          inputMode={name === 'port' ? 'numeric' : undefined}
          value={fields[name]}
          placeholder={name === 'port' ? defaultPort(fields.type) : undefined}
          spellcheck={false}
          autocomplete="off"
          aria-invalid={error !== undefined}
          aria-describedby={fieldDescription(fieldIds, { hint, error })}
          onInput={(event) => {
            const value = event.currentTarget.value;
            setFields((current) => ({ ...current, [name]: value }));
          }}
        />
      </Field>
    );
  };

  return (
    <form class="proxy-add" onSubmit={add} noValidate>
      <h3>{t('optionsProxyAddTitle')}</h3>
      <p class="muted hint">{t('optionsProxyAddHint')}</p>
      <div class="grid">
        {text('name', t('optionsProxyName'))}
        {text('address', t('optionsProxyAddress'), t('optionsProxyAddressHint'))}
        {text('port', t('optionsProxyPort'), t('optionsProxyPortHint'))}
        <Field ids={ids.type} label={t('optionsProxyType')} error={errors.type}>
          <select
            id={ids.type.input}
            value={fields.type}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setFields((current) => ({ ...current, type: value }));
            }}
          >
            {PROXY_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div class="row actions">
        <button type="submit" disabled={busy}>
          {t('optionsProxyAdd')}
        </button>
      </div>
      <WarningList warnings={warnings} />
      <NoticeLine notice={notice} />
    </form>
  );
}
