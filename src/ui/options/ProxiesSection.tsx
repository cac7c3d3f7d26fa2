/**
 * Organisation proxies: load an organisation's list, add one proxy, delete the selected
 * ones, or replace the whole list with the one edited here (after a confirmation; an
 * empty list, which clears every proxy, asks twice).
 */
import type { RefObject } from 'preact';
import { useId, useRef, useState } from 'preact/hooks';
import type { Proxy, ProxyWarning } from '../../service/values';
import { t } from '../../i18n';
import { Button } from '../common/Button';
import { ConfirmStep } from '../common/ConfirmStep';
import { TextField } from '../common/fields';
import { NoticeLine } from '../common/NoticeLine';
import { errorNotice, infoNotice, okNotice, type Notice } from '../common/notice';
import { useTask } from '../common/task';
import { errorText, failed } from './errors';
import { ProxyAddForm, WarningList } from './ProxyAddForm';
import { ProxyTable } from './ProxyTable';
import { prepare, splitProxies, type InheritedProxy, type ProxyRow } from './proxy-rows';
import { Section } from './Section';
import type { SectionProps } from './state';

interface Loaded {
  readonly org: string;
  readonly own: readonly ProxyRow[];
  readonly inherited: readonly InheritedProxy[];
}

type Confirm = { readonly kind: 'replace'; readonly proxies: Proxy[]; readonly warnings: ProxyWarning[] } | { readonly kind: 'clear'; readonly step: 1 | 2 };

export function ProxiesSection({ state, view }: SectionProps) {
  const [org, setOrg] = useState(view.settings.org);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [rowError, setRowError] = useState<{ readonly index: number; readonly text: string } | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [warnings, setWarnings] = useState<readonly ProxyWarning[]>([]);
  const task = useTask(failed);
  const busy = task.busy.value;
  const listHeading = useId();
  const keys = useRef(0);
  const nextKey = () => (keys.current += 1);
  /** The organisation as typed now: a list read for another one is not shown. */
  const orgNow = useRef(org);
  const replaceButton = useRef<HTMLButtonElement>(null);
  const clearButton = useRef<HTMLButtonElement>(null);
  /** The button that opened the confirmation, where focus returns when it closes. */
  const confirmOpener = useRef<RefObject<HTMLButtonElement | null>>(replaceButton);
  const orgName = org.trim();

  /** Reads the list of `name`; null when the user moved on to another organisation meanwhile. */
  async function fetchList(name: string): Promise<Loaded | null> {
    const result = await state.connector('getProxies', { org: name });
    if (orgNow.current.trim() !== name) return null;
    const { own, inherited } = splitProxies(result.proxies, nextKey);
    const next = { org: name, own, inherited };
    setLoaded(next);
    setSelected(new Set());
    setRowError(null);
    return next;
  }

  function openConfirm(next: Confirm, opener: RefObject<HTMLButtonElement | null>): void {
    confirmOpener.current = opener;
    setWarnings([]);
    setConfirm(next);
  }

  function load(event: Event): void {
    event.preventDefault();
    if (busy) return;
    setConfirm(null);
    setWarnings([]);
    if (orgName === '') {
      task.notice.value = errorNotice(t('optionsProxyOrgMissing'));
      return;
    }
    void task.run(async () => {
      const list = await fetchList(orgName);
      return list === null ? null : infoNotice(t('optionsProxyLoaded', [String(list.own.length), String(list.inherited.length), orgName]));
    });
  }

  /** After a change: the list is read again, so inherited proxies and the service's view show. */
  async function reloadAfter(message: Notice): Promise<Notice> {
    if (loaded === null) return message;
    try {
      await fetchList(loaded.org);
      return message;
    } catch (error) {
      return errorNotice(`${message.text} ${t('optionsProxyReloadFailed', errorText(error))}`);
    }
  }

  function deleteSelected(): void {
    if (loaded === null || selected.size === 0 || busy) return;
    const names = [...selected];
    setConfirm(null);
    setWarnings([]);
    void task.run(async () => {
      const result = await state.connector('deleteProxies', { org: loaded.org, names });
      const parts: string[] = [];
      if (result.proxies_deleted.length > 0) parts.push(t('optionsProxyDeleted', result.proxies_deleted.join(', ')));
      if (result.proxies_not_found.length > 0) parts.push(t('optionsProxyNotFound', result.proxies_not_found.join(', ')));
      const text = parts.join(' ') || t('optionsProxyNothingDeleted');
      return reloadAfter(result.proxies_not_found.length > 0 ? errorNotice(text) : okNotice(text));
    });
  }

  function askReplace(): void {
    if (loaded === null || busy) return;
    if (loaded.own.length === 0) {
      openConfirm({ kind: 'clear', step: 1 }, replaceButton);
      return;
    }
    setWarnings([]);
    const prepared = prepare(loaded.own);
    if (!prepared.ok) {
      const text = t('optionsProxyInvalid', prepared.text);
      setRowError(prepared.index === undefined ? null : { index: prepared.index, text });
      task.notice.value = errorNotice(text);
      setConfirm(null);
      return;
    }
    setRowError(null);
    task.notice.value = null;
    openConfirm({ kind: 'replace', proxies: prepared.proxies, warnings: prepared.warnings }, replaceButton);
  }

  function replace(proxies: Proxy[]): void {
    if (loaded === null) return;
    void (async () => {
      const replaced = await task.run(async () => {
        const result = await state.connector('setProxies', { org: loaded.org, proxies });
        setWarnings(result.warnings);
        const text = proxies.length === 0 ? t('optionsProxyCleared', loaded.org) : t('optionsProxyReplaced', [String(proxies.length), loaded.org]);
        return reloadAfter(okNotice(text));
      });
      // Closed once the buttons are usable again, so focus can return to the one that opened it.
      if (replaced) setConfirm(null);
    })();
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

  /** The confirmation shown: its question, its action and what it lists. */
  function confirmStep(step: Confirm, list: Loaded) {
    if (step.kind === 'replace') {
      return {
        question: t('optionsProxyConfirmReplace', [list.org, String(step.proxies.length)]),
        confirmLabel: t('optionsProxyConfirmReplaceButton'),
        onConfirm: () => {
          replace(step.proxies);
        },
        children: <WarningList warnings={step.warnings} />,
      };
    }
    if (step.step === 1) {
      return {
        question: t('optionsProxyConfirmClear', list.org),
        confirmLabel: t('optionsProxyConfirmClearButton'),
        onConfirm: () => {
          setConfirm({ kind: 'clear', step: 2 });
        },
      };
    }
    return {
      question: t('optionsProxyConfirmClearAgain', list.org),
      confirmLabel: t('optionsProxyConfirmClearAgainButton'),
      onConfirm: () => {
        replace([]);
      },
    };
  }

  return (
    <Section id="proxies" title={t('optionsProxiesTitle')}>
      <p class="muted">{t('optionsProxiesIntro')}</p>
      <form class="row org-row" onSubmit={load} noValidate>
        <TextField
          label={t('optionsProxyOrg')}
          hint={t('optionsProxyOrgHint')}
          value={org}
          onInput={(value) => {
            orgNow.current = value;
            setOrg(value);
            // The list shown belongs to the organisation it was loaded for.
            setLoaded(null);
            setConfirm(null);
          }}
        />
        <Button type="submit" busy={busy}>
          {t('optionsProxyLoad')}
        </Button>
      </form>

      {loaded !== null && (
        <div class="proxy-list" role="group" aria-labelledby={listHeading}>
          <h3 id={listHeading}>{t('optionsProxyListTitle', loaded.org)}</h3>
          <ProxyTable
            own={loaded.own}
            inherited={loaded.inherited}
            selected={selected}
            rowError={rowError}
            busy={busy}
            fallbackFocus={replaceButton}
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
            <Button class="danger" busy={busy} unavailable={selected.size === 0} onClick={deleteSelected}>
              {t('optionsProxyDeleteSelected')}
            </Button>
            <Button ref={replaceButton} busy={busy} onClick={askReplace}>
              {t('optionsProxyReplaceAll')}
            </Button>
            <Button
              class="danger"
              ref={clearButton}
              busy={busy}
              onClick={() => {
                openConfirm({ kind: 'clear', step: 1 }, clearButton);
              }}
            >
              {t('optionsProxyClearAll')}
            </Button>
          </div>
          <p class="muted hint">{t('optionsProxyReplaceHint')}</p>

          {confirm !== null && (
            <ConfirmStep
              {...confirmStep(confirm, loaded)}
              className="card"
              cancelLabel={t('optionsCancel')}
              busy={busy}
              returnFocus={confirmOpener.current}
              onCancel={() => {
                setConfirm(null);
              }}
            />
          )}
          <WarningList warnings={warnings} />
        </div>
      )}
      <NoticeLine notice={task.notice.value} />

      <ProxyAddForm
        state={state}
        org={orgName}
        onChanged={() => {
          if (loaded?.org !== orgName) return;
          fetchList(orgName).catch((error: unknown) => {
            task.notice.value = errorNotice(t('optionsProxyReloadFailed', errorText(error)));
          });
        }}
      />
    </Section>
  );
}
