/** Import and export of the settings (never the token). */
import { t } from '../../i18n';
import { MAX_IMPORT_LENGTH } from '../../messaging/limits';
import { Button, unavailableProps } from '../common/Button';
import { Field, fieldDescription, useFieldIds } from '../common/fields';
import { NoticeLine } from '../common/NoticeLine';
import { errorNotice, okNotice } from '../common/notice';
import { useTask } from '../common/task';
import { saveBlob } from './bytes';
import { errorText, failed } from './errors';
import { Section } from './Section';
import type { SectionProps } from './state';

export const EXPORT_FILE_NAME = 'isolink-settings.json';

export function ImportExportSection({ state }: SectionProps) {
  const task = useTask(failed);
  const busy = task.busy.value;
  const importIds = useFieldIds();

  function exportSettings(): void {
    void task.run(
      async () => {
        const { json } = await state.connector('exportSettings', {});
        saveBlob(new Blob([json], { type: 'application/json' }), EXPORT_FILE_NAME);
        return okNotice(t('optionsExported', EXPORT_FILE_NAME));
      },
      (error) => errorNotice(t('optionsExportFailed', errorText(error))),
    );
  }

  function importFile(input: HTMLInputElement): void {
    const file = input.files?.[0];
    if (file === undefined) return;
    void task
      .run(
        async () => {
          const json = await file.text();
          if (json.length > MAX_IMPORT_LENGTH) return errorNotice(t('optionsImportTooLarge', file.name));
          state.replaceView(await state.connector('importSettings', { json }));
          return okNotice(t('optionsImported', file.name));
        },
        (error) => errorNotice(t('optionsImportFailed', errorText(error))),
      )
      .finally(() => {
        // The same file may be chosen again after it was fixed.
        input.value = '';
      });
  }

  return (
    <Section id="import-export" title={t('optionsImportExportTitle')}>
      <p class="muted">{t('optionsTokenNeverExported')}</p>
      <div class="row actions">
        <Button busy={busy} onClick={exportSettings}>
          {t('optionsExport')}
        </Button>
      </div>
      <Field ids={importIds} label={t('optionsImport')} hint={t('optionsImportHint')}>
        <input
          id={importIds.input}
          type="file"
          accept="application/json,.json"
          {...unavailableProps(busy)}
          aria-describedby={fieldDescription(importIds, { hint: '' })}
          onChange={(event) => {
            importFile(event.currentTarget);
          }}
        />
      </Field>
      <NoticeLine notice={task.notice.value} />
    </Section>
  );
}
