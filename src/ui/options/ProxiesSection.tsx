/**
 * Organisation proxies: load an organisation's list, add one proxy, delete the selected
 * ones, or replace the whole list with the one edited here (after a confirmation; an
 * empty list, which clears every proxy, asks twice).
 */
import { useId, useRef, useState } from 'preact/hooks';
import type { Proxy, ProxyWarning } from '../../api/params';
import { t } from '../../i18n';
import { ConfirmStep } from './ConfirmStep';
import { errorText } from './errors';
import { Field, NoticeLine, Section, fieldDescription, useFieldIds, type Notice } from './fields';
import { ProxyAddForm, WarningList } from './ProxyAddForm';
import { ProxyTable } from './ProxyTable';
import { prepare, splitProxies, type InheritedProxy, type ProxyRow } from './proxy-rows';
import type { SectionProps } from './state';

interface Loaded {
  readonly org: string;
  readonly own: readonly ProxyRow[];
  readonly inherited: readonly InheritedProxy[];
}

type Confirm =
  | { readonly kind: 'replace'; readonly proxies: Proxy[]; readonly warnings: ProxyWarning[] }
  | { readonly kind: 'clear'; readonly step: 1 | 2 };

export function ProxiesSection({ state, view }: SectionProps) {
  const [org, setOrg] = useState(view.settings.org);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [rowError, setRowError] = useState<{ readonly index: number; readonly text: string } | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [warnings, setWarnings] = useState<readonly ProxyWarning[]>([]);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const orgIds = useFieldIds();
  const listHeading = useId();
  const keys = useRef(0);
  const nextKey = () => (keys.current += 1);
  const orgName = org.trim();

  async function fetchList(name: string): Promise<Loaded> {
    const result = await state.connector('getProxies', { org: name });
    const { own, inherited } = splitProxies(result.proxies, nextKey);
    const next = { org: name, own, inherited };
    setLoaded(next);
    setSelected(new Set());
    setRowError(null);
    return next;
  }

  async function run(task: () => Promise<Notice>): Promise<void> {
    setBusy(true);
    try {
      setNotice(await task());
    } catch (error) {
      setNotice({ kind: 'error', text: errorText(error) });
    } finally {
      setBusy(false);
    }
  }

  function load(event: Event): void {
    event.preventDefault();
    if (busy) return;
    setConfirm(null);
    setWarnings([]);
    if (orgName === '') {
      setNotice({ kind: 'error', text: t('optionsProxyOrgMissing') });
      return;
    }
    void run(async () => {
      const list = await fetchList(orgName);
      return { kind: 'info', text: t('optionsProxyLoaded', [String(list.own.length), String(list.inherited.length), orgName]) };
    });
  }

  /** After a change: the list is read again, so inherited proxies and the service's view show. */
  async function reloadAfter(message: Notice): Promise<Notice> {
    if (loaded === null) return message;
    try {
      await fetchList(loaded.org);
      return message;
    } catch (error) {
      return { kind: 'error', text: `${message.text} ${t('optionsProxyReloadFailed', errorText(error))}` };
    }
  }

  function deleteSelected(): void {
    if (loaded === null || selected.size === 0 || busy) return;
    const names = [...selected];
    setConfirm(null);
    setWarnings([]);
    void run(async () => {
      const result = await state.connector('deleteProxies', { org: loaded.org, names });
      const parts: string[] = [];
      if (result.proxies_deleted.length > 0) parts.push(t('optionsProxyDeleted', result.proxies_deleted.join(', ')));
      if (result.proxies_not_found.length > 0) parts.push(t('optionsProxyNotFound', result.proxies_not_found.join(', ')));
      const kind = result.proxies_not_found.length > 0 ? 'error' : 'ok';
      return reloadAfter({ kind, text: parts.join(' ') || t('optionsProxyNothingDeleted') });
    });
  }

  function askReplace(): void {
    if (loaded === null || busy) return;
    setWarnings([]);
    if (loaded.own.length === 0) {
      setConfirm({ kind: 'clear', step: 1 });
      return;
    }
    const prepared = prepare(loaded.own);
    if (!prepared.ok) {
      const text = t('optionsProxyInvalid', [prepared.field, prepared.reason]);
      setRowError(prepared.index === undefined ? null : { index: prepared.index, text });
      setNotice({ kind: 'error', text });
      setConfirm(null);
      return;
    }
    setRowError(null);
    setNotice(null);
    setConfirm({ kind: 'replace', proxies: prepared.proxies, warnings: prepared.warnings });
  }

  function replace(proxies: Proxy[]): void {
    if (loaded === null) return;
    void run(async () => {
      const result = await state.connector('setProxies', { org: loaded.org, proxies });
      setConfirm(null);
      setWarnings(result.warnings);
      const text = proxies.length === 0 ? t('optionsProxyCleared', loaded.org) : t('optionsProxyReplaced', [String(proxies.length), loaded.org]);
      return reloadAfter({ kind: 'ok', text });
    });
  }

  function editRow(key: number, change: Partial<ProxyRow>): void {
    setLoaded((current) => current && { ...current, own: current.own.map((row) => (row.key === key ? { ...row, ...change } : row)) });
    setConfirm(null);
  }

  function removeRow(key: number): void {
    setLoaded((current) => current && { ...current, own: current.own.filter((row) => row.key !== key) });
    setConfirm(null);
    setRowError(null);
  }

  return (
    <Section id="proxies" title={t('optionsProxiesTitle')}>
      <p class="muted">{t('optionsProxiesIntro')}</p>
      <form class="row org-row" onSubmit={load} noValidate>
        <Field ids={orgIds} label={t('optionsProxyOrg')} hint={t('optionsProxyOrgHint')}>
          <input
            id={orgIds.input}
            type="text"
            value={org}
            spellcheck={false}
            autocomplete="off"
            aria-describedby={fieldDescription(orgIds, { hint: '' })}
            onInput={(event) => {
              setOrg(event.currentTarget.value);
              // The list shown belongs to the organisation it was loaded for.
              setLoaded(null);
              setConfirm(null);
            }}
          />
        </Field>
        <button type="submit" disabled={busy}>
          {t('optionsProxyLoad')}
        </button>
      </form>

      {loaded !== null && (
        <div class="proxy-list" role="group" aria-labelledby={listHeading}>
          <h3 id={listHeading}>{t('optionsProxyListTitle', loaded.org)}</h3>
          <ProxyTable
            own={loaded.own}
            inherited={loaded.inherited}
            selected={selected}
            rowError={rowError}
            disabled={busy}
            onSelect={(name, on) => {
              setSelected((current) => {
                const next = new Set(current);
                if (on) next.add(name);
                else next.delete(name);
                return next;
              });
            }}
            onEdit={editRow}
            onRemove={removeRow}
          />
          <div class="row actions">
            <button type="button" class="danger" disabled={busy || selected.size === 0} onClick={deleteSelected}>
              {t('optionsProxyDeleteSelected')}
            </button>
            <button type="button" disabled={busy} onClick={askReplace}>
              {t('optionsProxyReplaceAll')}
            </button>
            <button
              type="button"
              class="danger"
              disabled={busy}
              onClick={() => {
                setWarnings([]);
                setConfirm({ kind: 'clear', step: 1 });
              }}
            >
              {t('optionsProxyClearAll')}
            </button>
          </div>
          <p class="muted hint">{t('optionsProxyReplaceHint')}</p>

          {confirm?.kind === 'replace' && (
            <ConfirmStep
              question={t('optionsProxyConfirmReplace', [loaded.org, String(confirm.proxies.length)])}
              confirmLabel={t('optionsProxyConfirmReplaceButton')}
              busy={busy}
              onConfirm={() => {
                replace(confirm.proxies);
              }}
              onCancel={() => {
                setConfirm(null);
              }}
            >
              <WarningList warnings={confirm.warnings} />
            </ConfirmStep>
          )}
          {confirm?.kind === 'clear' && confirm.step === 1 && (
            <ConfirmStep
              question={t('optionsProxyConfirmClear', loaded.org)}
              confirmLabel={t('optionsProxyConfirmClearButton')}
              busy={busy}
              onConfirm={() => {
                setConfirm({ kind: 'clear', step: 2 });
              }}
              onCancel={() => {
                setConfirm(null);
              }}
            />
          )}
          {confirm?.kind === 'clear' && confirm.step === 2 && (
            <ConfirmStep
              question={t('optionsProxyConfirmClearAgain', loaded.org)}
              confirmLabel={t('optionsProxyConfirmClearAgainButton')}
              busy={busy}
              onConfirm={() => {
                replace([]);
              }}
              onCancel={() => {
                setConfirm(null);
              }}
            />
          )}
          <WarningList warnings={warnings} />
        </div>
      )}
      <NoticeLine notice={notice} />

      <ProxyAddForm
        state={state}
        org={orgName}
        onChanged={() => {
          if (loaded?.org !== orgName) return;
          fetchList(orgName).catch((error: unknown) => {
            setNotice({ kind: 'error', text: t('optionsProxyReloadFailed', errorText(error)) });
          });
        }}
      />
    </Section>
  );
}
