/** Files: upload one through the background (putFile), download one by id (getFile). */
import { useId, useState } from 'preact/hooks';
import { t } from '../../i18n';
import { MAX_FILE_BYTES } from '../../messaging/limits';
import { Button } from '../common/Button';
import { Field, TextField, fieldDescription, useFieldIds } from '../common/fields';
import { NoticeLine } from '../common/NoticeLine';
import { errorNotice, infoNotice, okNotice } from '../common/notice';
import { useTask } from '../common/task';
import { base64ToBytes, bytesToBase64, safeFileName, saveBlob } from '../common/bytes';
import { failed } from './errors';
import { Section } from './Section';
import type { SectionProps } from './state';

const MIB = 1024 * 1024;

function mebibytes(bytes: number): string {
  return (bytes / MIB).toFixed(1);
}

function UploadForm({ state }: Pick<SectionProps, 'state'>) {
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [path, setPath] = useState('');
  const [bucketId, setBucketId] = useState('');
  const [fileToken, setFileToken] = useState('');
  const [fileId, setFileId] = useState('');
  const task = useTask(failed);
  const fileIds = useFieldIds();
  const resultId = useId();

  function upload(event: Event): void {
    event.preventDefault();
    if (task.busy.value) return;
    setFileId('');
    const missing =
      file === null
        ? t('optionsFileMissing')
        : name.trim() === ''
          ? t('optionsFileNameMissing')
          : bucketId.trim() === ''
            ? t('optionsBucketMissing')
            : fileToken.trim() === ''
              ? t('optionsFileTokenMissing')
              : null;
    if (missing !== null || file === null) {
      task.notice.value = errorNotice(missing ?? t('optionsFileMissing'));
      return;
    }
    if (file.size > MAX_FILE_BYTES) {
      task.notice.value = errorNotice(t('optionsFileTooLarge', [file.name, mebibytes(file.size), String(MAX_FILE_BYTES / MIB)]));
      return;
    }
    void task.run(async () => {
      task.notice.value = infoNotice(t('optionsFileUploading', file.name));
      const base64 = bytesToBase64(new Uint8Array(await file.arrayBuffer()));
      const trimmedPath = path.trim();
      const result = await state.connector('putFile', {
        name: name.trim(),
        ...(trimmedPath === '' ? {} : { path: trimmedPath }),
        bucketId: bucketId.trim(),
        fileToken: fileToken.trim(),
        base64,
        ...(file.type === '' ? {} : { contentType: file.type }),
      });
      setFileId(result.fileId);
      return okNotice(t('optionsFileUploaded', name.trim()));
    });
  }

  return (
    <form class="file-form" onSubmit={upload} noValidate>
      <h3>{t('optionsUploadTitle')}</h3>
      <Field ids={fileIds} label={t('optionsFileToUpload')} hint={t('optionsFileLimit', String(MAX_FILE_BYTES / MIB))}>
        <input
          id={fileIds.input}
          type="file"
          aria-describedby={fieldDescription(fileIds, { hint: '' })}
          onChange={(event) => {
            const chosen = event.currentTarget.files?.[0] ?? null;
            setFile(chosen);
            if (chosen !== null) setName(chosen.name);
          }}
        />
      </Field>
      <TextField label={t('optionsFileName')} hint={t('optionsFileNameHint')} value={name} onInput={setName} />
      <TextField label={t('optionsFilePath')} hint={t('optionsFilePathHint')} value={path} onInput={setPath} />
      <TextField label={t('optionsBucketId')} value={bucketId} onInput={setBucketId} />
      <TextField type="password" label={t('optionsFileToken')} hint={t('optionsFileTokenHint')} value={fileToken} onInput={setFileToken} />
      <div class="row actions">
        <Button type="submit" busy={task.busy.value}>
          {t('optionsUpload')}
        </Button>
      </div>
      <NoticeLine notice={task.notice.value} />
      {fileId !== '' && (
        <p>
          <span id={resultId}>{t('optionsFileId')}</span>{' '}
          <output class="mono" aria-labelledby={resultId}>
            {fileId}
          </output>
        </p>
      )}
    </form>
  );
}

function DownloadForm({ state }: Pick<SectionProps, 'state'>) {
  const [fileId, setFileId] = useState('');
  const [fileToken, setFileToken] = useState('');
  const task = useTask(failed);

  function download(event: Event): void {
    event.preventDefault();
    if (task.busy.value) return;
    const id = fileId.trim();
    const token = fileToken.trim();
    if (id === '' || token === '') {
      task.notice.value = errorNotice(id === '' ? t('optionsFileIdMissing') : t('optionsFileTokenMissing'));
      return;
    }
    void task.run(async () => {
      const result = await state.connector('getFile', { id, fileToken: token });
      const bytes = base64ToBytes(result.base64);
      const fileName = safeFileName(id, 'download.bin');
      saveBlob(new Blob([bytes], { type: 'application/octet-stream' }), fileName);
      return okNotice(t('optionsFileDownloaded', [fileName, String(bytes.length)]));
    });
  }

  return (
    <form class="file-form" onSubmit={download} noValidate>
      <h3>{t('optionsDownloadTitle')}</h3>
      <TextField label={t('optionsDownloadFileId')} value={fileId} onInput={setFileId} />
      <TextField type="password" label={t('optionsFileToken')} value={fileToken} onInput={setFileToken} />
      <div class="row actions">
        <Button type="submit" busy={task.busy.value}>
          {t('optionsDownload')}
        </Button>
      </div>
      <NoticeLine notice={task.notice.value} />
    </form>
  );
}

export function FilesSection({ state }: SectionProps) {
  return (
    <Section id="files" title={t('optionsFilesTitle')}>
      <p class="muted">{t('optionsFilesIntro')}</p>
      <div class="two-col">
        <UploadForm state={state} />
        <DownloadForm state={state} />
      </div>
    </Section>
  );
}
