/** Adds one proxy to an organisation at once (addProxies), validated before it is sent. */
import { useState } from 'preact/hooks';
import type { ProxyWarning } from '../../service/values';
import { DEFAULT_PROXY_PORTS, PROXY_TYPES, isProxyType } from '../../service/values';
import { t } from '../../i18n';
import { proxyWarningText } from '../../i18n/errors';
import type { ProtocolValues } from '../../messaging/protocol';
import { Button } from '../common/Button';
import { SelectField, TextField } from '../common/fields';
import { NoticeLine } from '../common/NoticeLine';
import { errorNotice, okNotice } from '../common/notice';
import { useTask } from '../common/task';
import { useDraft } from './draft';
import { failed } from './errors';
import { prepare, type ProxyFields } from './proxy-rows';
import type { OptionsState } from './state';

type FieldName = keyof ProxyFields;
const EMPTY: ProxyFields = { name: '', address: '', port: '', type: 'http' };

/** Which input a validation path such as `proxy[0].location.port` points at. */
function fieldOfPath(path: string): FieldName | undefined {
  const last = path.slice(path.lastIndexOf('.') + 1);
  return last === 'name' || last === 'address' || last === 'port' || last === 'type' ? last : undefined;
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
        <li key={`${warning.proxy}-${warning.code}`}>{proxyWarningText(warning)}</li>
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
  const { draft: fields, update, mark, settle } = useDraft<ProxyFields>(() => EMPTY);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [warnings, setWarnings] = useState<readonly ProxyWarning[]>([]);
  const task = useTask(failed);

  function add(event: Event): void {
    event.preventDefault();
    if (task.busy.value) return;
    setWarnings([]);
    if (org === '') {
      setErrors({});
      task.notice.value = errorNotice(t('optionsProxyOrgMissing'));
      return;
    }
    const prepared = prepare([fields], 'proxy');
    if (!prepared.ok) {
      const text = t('optionsProxyInvalid', prepared.text);
      const field = fieldOfPath(prepared.field);
      setErrors(field === undefined ? {} : { [field]: text });
      task.notice.value = errorNotice(text);
      return;
    }
    setErrors({});
    setWarnings(prepared.warnings);
    const edits = mark();
    void task.run(async () => {
      const result = await state.connector('addProxies', { org, proxies: prepared.proxies });
      if (result.warnings.length > 0) setWarnings(result.warnings);
      settle(edits, EMPTY);
      onChanged(result);
      return okNotice(t('optionsProxyAdded', [prepared.proxies[0]?.name ?? '', org]));
    });
  }

  const text = (name: 'name' | 'address' | 'port', label: string, hint?: string) => (
    <TextField
      label={label}
      hint={hint}
      error={errors[name]}
      inputMode={name === 'port' ? 'numeric' : undefined}
      placeholder={name === 'port' ? defaultPort(fields.type) : undefined}
      value={fields[name]}
      onInput={(value) => {
        update({ [name]: value });
      }}
    />
  );

  return (
    <form class="proxy-add" onSubmit={add} noValidate>
      <h3>{t('optionsProxyAddTitle')}</h3>
      <p class="muted hint">{t('optionsProxyAddHint')}</p>
      <div class="grid">
        {text('name', t('optionsProxyName'))}
        {text('address', t('optionsProxyAddress'), t('optionsProxyAddressHint'))}
        {text('port', t('optionsProxyPort'), t('optionsProxyPortHint'))}
        <SelectField
          label={t('optionsProxyType')}
          error={errors.type}
          value={fields.type}
          onChange={(value) => {
            update({ type: value });
          }}
        >
          {PROXY_TYPES.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </SelectField>
      </div>
      <div class="row actions">
        <Button type="submit" busy={task.busy.value}>
          {t('optionsProxyAdd')}
        </Button>
      </div>
      <WarningList warnings={warnings} />
      <NoticeLine notice={task.notice.value} />
    </form>
  );
}
