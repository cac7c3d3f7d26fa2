/** The loaded proxy list: the organisation's own proxies editable, inherited ones read-only. */
import { Fragment, type RefObject } from 'preact';
import { useId, useRef } from 'preact/hooks';
import { PROXY_TYPES, isProxyType } from '../../service/values';
import { t } from '../../i18n';
import { Button, unavailableProps } from '../common/Button';
import { focusNeighbour } from '../common/focus';
import type { InheritedProxy, ProxyRow } from './proxy-rows';

type TextColumn = 'name' | 'address' | 'port';

const TEXT_COLUMNS: readonly { readonly column: TextColumn; readonly label: 'optionsProxyRowName' | 'optionsProxyRowAddress' | 'optionsProxyRowPort' }[] = [
  { column: 'name', label: 'optionsProxyRowName' },
  { column: 'address', label: 'optionsProxyRowAddress' },
  { column: 'port', label: 'optionsProxyRowPort' },
];

interface Props {
  readonly own: readonly ProxyRow[];
  readonly inherited: readonly InheritedProxy[];
  readonly selected: ReadonlySet<string>;
  readonly rowError: { readonly index: number; readonly text: string } | null;
  /** A request runs: the selection and the remove buttons wait. */
  readonly busy: boolean;
  readonly onSelect: (name: string, on: boolean) => void;
  readonly onEdit: (key: number, change: Partial<ProxyRow>) => void;
  readonly onRemove: (key: number) => void;
  /** Where focus goes when the last own row is removed. */
  readonly fallbackFocus: RefObject<HTMLElement | null>;
}

export function ProxyTable({ own, inherited, selected, rowError, busy, onSelect, onEdit, onRemove, fallbackFocus }: Props) {
  const base = useId();
  const body = useRef<HTMLTableSectionElement>(null);
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
        <tbody ref={body}>
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
                      {...unavailableProps(busy)}
                      onChange={(event) => {
                        onSelect(row.original, event.currentTarget.checked);
                      }}
                    />
                  </td>
                  {TEXT_COLUMNS.map(({ column, label }) => (
                    <td key={column}>
                      <input
                        type="text"
                        inputMode={column === 'port' ? 'numeric' : undefined}
                        class={column === 'port' ? 'port' : undefined}
                        aria-label={t(label, who)}
                        aria-describedby={described}
                        value={row[column]}
                        spellcheck={false}
                        onInput={(event) => {
                          onEdit(row.key, { [column]: event.currentTarget.value });
                        }}
                      />
                    </td>
                  ))}
                  <td>
                    <select
                      aria-label={t('optionsProxyRowType', who)}
                      value={row.type}
                      onChange={(event) => {
                        onEdit(row.key, { type: event.currentTarget.value });
                      }}
                    >
                      {row.type === '' || isProxyType(row.type) ? null : <option value={row.type}>{row.type}</option>}
                      <option value="">{t('optionsProxyTypeDefault')}</option>
                      {PROXY_TYPES.map((type) => (
                        <option key={type} value={type}>
                          {type}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>
                    <Button
                      busy={busy}
                      data-remove=""
                      aria-label={t('optionsProxyRemoveRow', who)}
                      onClick={(event) => {
                        // The button goes with its row: focus moves to a neighbour's, or out of the table.
                        focusNeighbour(event.currentTarget, body.current?.querySelectorAll<HTMLElement>('button[data-remove]') ?? [], fallbackFocus.current);
                        onRemove(row.key);
                      }}
                    >
                      {t('optionsProxyRemoveFromList')}
                    </Button>
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
