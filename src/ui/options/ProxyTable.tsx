/** The loaded proxy list: the organisation's own proxies editable, inherited ones read-only. */
import { Fragment } from 'preact';
import { useId } from 'preact/hooks';
import { PROXY_TYPES } from '../../api/params';
import { t } from '../../i18n';
import type { InheritedProxy, ProxyRow } from './proxy-rows';

interface Props {
  readonly own: readonly ProxyRow[];
  readonly inherited: readonly InheritedProxy[];
  readonly selected: ReadonlySet<string>;
  readonly rowError: { readonly index: number; readonly text: string } | null;
  readonly disabled: boolean;
  readonly onSelect: (name: string, on: boolean) => void;
  readonly onEdit: (key: number, change: Partial<ProxyRow>) => void;
  readonly onRemove: (key: number) => void;
}

export function ProxyTable({ own, inherited, selected, rowError, disabled, onSelect, onEdit, onRemove }: Props) {
  const base = useId();
  if (own.length === 0 && inherited.length === 0) return <p class="muted">{t('optionsProxyNone')}</p>;
  return (
    <div class="table-wrap">
      <table class="proxies">
        <thead>
          <tr>
            <th scope="col">{t('optionsProxySelect')}</th>
            <th scope="col">{t('optionsProxyName')}</th>
            <th scope="col">{t('optionsProxyAddress')}</th>
            <th scope="col">{t('optionsProxyPort')}</th>
            <th scope="col">{t('optionsProxyType')}</th>
            <th scope="col">{t('optionsProxyRowActions')}</th>
          </tr>
        </thead>
        <tbody>
          {own.map((row, index) => {
            const error = rowError?.index === index ? rowError.text : undefined;
            const errorId = `${base}-${row.key}-error`;
            const described = error === undefined ? undefined : errorId;
            const who = row.original === '' ? String(index + 1) : row.original;
            return (
              <Fragment key={row.key}>
              <tr class={error === undefined ? undefined : 'invalid'}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={t('optionsProxySelectOne', who)}
                    checked={selected.has(row.original)}
                    disabled={disabled}
                    onChange={(event) => {
                      onSelect(row.original, event.currentTarget.checked);
                    }}
                  />
                </td>
                <td>
                  <input
                    type="text"
                    aria-label={t('optionsProxyRowName', who)}
                    aria-describedby={described}
                    value={row.name}
                    spellcheck={false}
                    onInput={(event) => {
                      onEdit(row.key, { name: event.currentTarget.value });
                    }}
                  />
                </td>
                <td>
                  <input
                    type="text"
                    aria-label={t('optionsProxyRowAddress', who)}
                    aria-describedby={described}
                    value={row.address}
                    spellcheck={false}
                    onInput={(event) => {
                      onEdit(row.key, { address: event.currentTarget.value });
                    }}
                  />
                </td>
                <td>
                  <input
                    type="text"
                    inputMode="numeric"
                    class="port"
                    aria-label={t('optionsProxyRowPort', who)}
                    aria-describedby={described}
                    value={row.port}
                    onInput={(event) => {
                      onEdit(row.key, { port: event.currentTarget.value });
                    }}
                  />
                </td>
                <td>
                  <select
                    aria-label={t('optionsProxyRowType', who)}
                    value={row.type}
                    onChange={(event) => {
                      onEdit(row.key, { type: event.currentTarget.value });
                    }}
                  >
                    {row.type === '' || (PROXY_TYPES as readonly string[]).includes(row.type) ? null : <option value={row.type}>{row.type}</option>}
                    <option value="">{t('optionsProxyTypeDefault')}</option>
                    {PROXY_TYPES.map((type) => (
                      <option key={type} value={type}>
                        {type}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  <button
                    type="button"
                    disabled={disabled}
                    aria-label={t('optionsProxyRemoveRow', who)}
                    onClick={() => {
                      onRemove(row.key);
                    }}
                  >
                    {t('optionsProxyRemoveFromList')}
                  </button>
                </td>
              </tr>
              {error !== undefined && (
                <tr class="row-error">
                  <td colSpan={6}>
                    <p id={errorId} class="error">
                      {error}
                    </p>
                  </td>
                </tr>
              )}
              </Fragment>
            );
          })}
          {inherited.map((proxy) => (
            <tr key={`inherited-${proxy.from}-${proxy.name}`} class="inherited">
              <td />
              <td class="mono">{proxy.name}</td>
              <td class="mono">{proxy.address}</td>
              <td>{proxy.port}</td>
              <td>{proxy.type}</td>
              <td class="muted">{t('optionsProxyInherited', proxy.from)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
