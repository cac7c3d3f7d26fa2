/** Import and export of the settings (never the token). */
import { useState } from 'preact/hooks';
import { t } from '../../i18n';
import { PROTOCOL } from '../../messaging/protocol';
import { saveBlob } from './bytes';
import { errorText } from './errors';
import { Field, NoticeLine, Section, fieldDescription, useFieldIds, type Notice } from './fields';
import type { SectionProps } from './state';

export const EXPORT_FILE_NAME = 'isolink-settings.json';

export function ImportExportSection({ state }: SectionProps) {
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const importIds = useFieldIds();

  async function run(task: () => Promise<Notice>): Promise<void> {
    setBusy(true);
    try {
      setNotice(await task());
    } catch (error) {
      setNotice({ kind: 'error', text: t('optionsExportFailed', errorText(error)) });
    } finally {
      setBusy(false);
    }
  }

  function exportSettings(): void {
    void run(async () => {
      const { json } = await state.connector('exportSettings', {});
      saveBlob(new Blob([json], { type: 'application/json' }), EXPORT_FILE_NAME);
      return { kind: 'ok', text: t('optionsExported', EXPORT_FILE_NAME) };
    });
  }

  function importFile(input: HTMLInputElement): void {
    const file = input.files?.[0];
    if (file === undefined) return;
    void run(async () => {
      try {
        const json = await file.text();
        if (!PROTOCOL.importSettings.data.safeParse({ json }).success) return { kind: 'error', text: t('optionsImportTooLarge', file.name) };
        const next = await state.connector('importSettings', { json });
        state.replaceView(next);
        return { kind: 'ok', text: t('optionsImported', file.name) };
      } catch (error) {
        return { kind: 'error', text: t('optionsImportFailed', errorText(error)) };
      } finally {
        // The same file may be chosen again after it was fixed.
        input.value = '';
      }
    });
  }

  return (
    <Section id="import-export" title={t('optionsImportExportTitle')}>
      <p class="muted">{t('optionsTokenNeverExported')}</p>
      <div class="row actions">
        <button type="button" disabled={busy} onClick={exportSettings}>
          {t('optionsExport')}
        </button>
      </div>
      <Field ids={importIds} label={t('optionsImport')} hint={t('optionsImportHint')}>
        <input
          id={importIds.input}
          type="file"
          accept="application/json,.json"
          disabled={busy}
          aria-describedby={fieldDescription(importIds, { hint: '' })}
          onChange={(event) => {
            importFile(event.currentTarget);
          }}
        />
      </Field>
      <NoticeLine notice={notice} />
    </Section>
  );
}
