/**
 * Import and export of the settings (never the token). Choosing a file changes nothing:
 * what it would change is shown, the service's and the launch tabs' origins by name, and
 * only Apply imports it.
 */
import type { RefObject } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { t, type MessageKey } from '../../i18n';
import { MAX_IMPORT_LENGTH } from '../../settings/limits';
import { Button, unavailableProps } from '../common/Button';
import { Field, fieldDescription, useFieldIds } from '../common/fields';
import { NoticeLine } from '../common/NoticeLine';
import { ConfirmStep } from '../common/ConfirmStep';
import { errorNotice, infoNotice, okNotice } from '../common/notice';
import type { ImportPreview, SettingKey } from '../../messaging/protocol';
import { useTask } from '../common/task';
import { saveBlob } from '../common/bytes';
import { errorText, failed } from './errors';
import { Section } from './Section';
import type { SectionProps } from './state';

const EXPORT_FILE_NAME = 'isolink-settings.json';

/** The options page's name of each setting, as the preview lists them. */
const SETTING_LABELS: { readonly [K in SettingKey]: MessageKey } = {
  serviceUrl: 'optionsServiceUrl',
  launchUrl: 'optionsLaunchUrl',
  username: 'optionsUsername',
  org: 'optionsOrganisation',
  rememberToken: 'optionsRemember',
  policy: 'optionsPolicyTitle',
  maxUses: 'optionsMaxUses',
  expiry: 'optionsExpiry',
  autoDomainAllow: 'optionsAutoDomainAllow',
  unwrap: 'optionsUnwrap',
  research: 'optionsResearchTitle',
  tabPlacement: 'optionsTabPlacement',
  bulkConfirmThreshold: 'optionsBulkThreshold',
  autoIsolate: 'optionsAutoIsolateTitle',
};

/** A file chosen and what it would change, waiting for Apply. */
interface Pending {
  readonly name: string;
  readonly json: string;
  readonly preview: ImportPreview;
}

function origin(text: string): string {
  return text === '' ? t('optionsImportNone') : text;
}

/** What a chosen file would change, with Apply and Cancel. */
function Review({
  chosen,
  busy,
  returnFocus,
  onApply,
  onCancel,
}: {
  readonly chosen: Pending;
  readonly busy: boolean;
  readonly returnFocus: RefObject<HTMLInputElement | null>;
  readonly onApply: () => void;
  readonly onCancel: () => void;
}) {
  const { preview } = chosen;
  const question =
    preview.changes.length === 0
      ? t('optionsImportNoChange', chosen.name)
      : t('optionsImportReview', [chosen.name, preview.changes.map((key) => t(SETTING_LABELS[key])).join(', ')]);
  return (
    <ConfirmStep
      question={question}
      confirmLabel={t('optionsImportApply')}
      cancelLabel={t('optionsImportCancel')}
      busy={busy}
      returnFocus={returnFocus}
      onConfirm={onApply}
      onCancel={onCancel}
    >
      {preview.service && <p class="warn">{t('optionsImportServiceChange', [origin(preview.service.from), origin(preview.service.to)])}</p>}
      {preview.launch && <p class="warn">{t('optionsImportLaunchChange', [origin(preview.launch.from), origin(preview.launch.to)])}</p>}
      {preview.exceptAdded.length > 0 && <p class="warn">{t('optionsImportExceptAdded', preview.exceptAdded.join(', '))}</p>}
    </ConfirmStep>
  );
}

export function ImportExportSection({ state }: SectionProps) {
  const task = useTask(failed);
  const busy = task.busy.value;
  const importIds = useFieldIds();
  const [pending, setPending] = useState<Pending | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

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

  function chooseFile(input: HTMLInputElement): void {
    const file = input.files?.[0];
    if (file === undefined) return;
    setPending(null);
    void task
      .run(
        async () => {
          const json = await file.text();
          if (json.length > MAX_IMPORT_LENGTH) return errorNotice(t('optionsImportTooLarge', file.name));
          const preview = await state.connector('previewImport', { json });
          setPending({ name: file.name, json, preview });
          return null;
        },
        (error) => errorNotice(t('optionsImportFailed', errorText(error))),
      )
      .finally(() => {
        // The same file may be chosen again after it was fixed.
        input.value = '';
      });
  }

  function apply(chosen: Pending): void {
    void task.run(
      async () => {
        state.replaceView(await state.connector('importSettings', { json: chosen.json, confirmed: chosen.preview.connection }));
        setPending(null);
        return okNotice(t('optionsImported', chosen.name));
      },
      (error) => {
        setPending(null);
        return errorNotice(t('optionsImportFailed', errorText(error)));
      },
    );
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
          ref={fileInput}
          id={importIds.input}
          type="file"
          accept="application/json,.json"
          {...unavailableProps(busy)}
          aria-describedby={fieldDescription(importIds, { hint: '' })}
          onChange={(event) => {
            chooseFile(event.currentTarget);
          }}
        />
      </Field>
      {pending && (
        <Review
          chosen={pending}
          busy={busy}
          returnFocus={fileInput}
          onApply={() => {
            apply(pending);
          }}
          onCancel={() => {
            setPending(null);
            task.notice.value = infoNotice(t('optionsImportCancelled'));
          }}
        />
      )}
      <NoticeLine notice={task.notice.value} />
    </Section>
  );
}
