/** Files: upload one through the background (putFile), download one by id (getFile). */
import { useId, useState } from 'preact/hooks';
import { t } from '../../i18n';
import { MAX_FILE_BYTES } from '../../messaging/protocol';
import { base64ToBytes, bytesToBase64, safeFileName, saveBlob } from './bytes';
import { errorText } from './errors';
import { Field, NoticeLine, Section, fieldDescription, useFieldIds, type Notice } from './fields';
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
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { file: useFieldIds(), name: useFieldIds(), path: useFieldIds(), bucket: useFieldIds(), token: useFieldIds() };
  const resultId = useId();

  function upload(event: Event): void {
    event.preventDefault();
    if (busy) return;
    setFileId('');
    const missing =
      file === null ? t('optionsFileMissing') : name.trim() === '' ? t('optionsFileNameMissing') : bucketId.trim() === '' ? t('optionsBucketMissing') : fileToken.trim() === '' ? t('optionsFileTokenMissing') : null;
    if (missing !== null || file === null) {
      setNotice({ kind: 'error', text: missing ?? t('optionsFileMissing') });
      return;
    }
    if (file.size > MAX_FILE_BYTES) {
      setNotice({ kind: 'error', text: t('optionsFileTooLarge', [file.name, mebibytes(file.size), String(MAX_FILE_BYTES / MIB)]) });
      return;
    }
    setBusy(true);
    setNotice({ kind: 'info', text: t('optionsFileUploading', file.name) });
    void (async () => {
      try {
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
        setNotice({ kind: 'ok', text: t('optionsFileUploaded', name.trim()) });
      } catch (error) {
        setNotice({ kind: 'error', text: errorText(error) });
      } finally {
        setBusy(false);
      }
    })();
  }

  const text = (fieldIds: ReturnType<typeof useFieldIds>, label: string, value: string, set: (value: string) => void, hint?: string) => (
    <Field ids={fieldIds} label={label} hint={hint}>
      <input
        id={fieldIds.input}
        type="text"
        value={value}
        spellcheck={false}
        autocomplete="off"
        aria-describedby={fieldDescription(fieldIds, { hint })}
        onInput={(event) => {
          set(event.currentTarget.value);
        }}
      />
    </Field>
  );

  return (
    <form class="file-form" onSubmit={upload} noValidate>
      <h3>{t('optionsUploadTitle')}</h3>
      <Field ids={ids.file} label={t('optionsFileToUpload')} hint={t('optionsFileLimit', String(MAX_FILE_BYTES / MIB))}>
        <input
          id={ids.file.input}
          type="file"
          aria-describedby={fieldDescription(ids.file, { hint: '' })}
          onChange={(event) => {
            const chosen = event.currentTarget.files?.[0] ?? null;
            setFile(chosen);
            if (chosen !== null) setName(chosen.name);
          }}
        />
      </Field>
      {text(ids.name, t('optionsFileName'), name, setName, t('optionsFileNameHint'))}
      {text(ids.path, t('optionsFilePath'), path, setPath, t('optionsFilePathHint'))}
      {text(ids.bucket, t('optionsBucketId'), bucketId, setBucketId)}
      <Field ids={ids.token} label={t('optionsFileToken')} hint={t('optionsFileTokenHint')}>
        <input
          id={ids.token.input}
          type="password"
          value={fileToken}
          autocomplete="new-password"
          aria-describedby={fieldDescription(ids.token, { hint: '' })}
          onInput={(event) => {
            setFileToken(event.currentTarget.value);
          }}
        />
      </Field>
      <div class="row actions">
        <button type="submit" disabled={busy}>
          {t('optionsUpload')}
        </button>
      </div>
      <NoticeLine notice={notice} />
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
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { id: useFieldIds(), token: useFieldIds() };

  function download(event: Event): void {
    event.preventDefault();
    if (busy) return;
    const id = fileId.trim();
    const token = fileToken.trim();
    if (id === '' || token === '') {
      setNotice({ kind: 'error', text: id === '' ? t('optionsFileIdMissing') : t('optionsFileTokenMissing') });
      return;
    }
    setBusy(true);
    void (async () => {
      try {
        const result = await state.connector('getFile', { id, fileToken: token });
        const bytes = base64ToBytes(result.base64);
        const fileName = safeFileName(id, 'download.bin');
        saveBlob(new Blob([bytes], { type: 'application/octet-stream' }), fileName);
        setNotice({ kind: 'ok', text: t('optionsFileDownloaded', [fileName, String(bytes.length)]) });
      } catch (error) {
        setNotice({ kind: 'error', text: errorText(error) });
      } finally {
        setBusy(false);
      }
    })();
  }

  return (
    <form class="file-form" onSubmit={download} noValidate>
      <h3>{t('optionsDownloadTitle')}</h3>
      <Field ids={ids.id} label={t('optionsDownloadFileId')}>
        <input
          id={ids.id.input}
          type="text"
          value={fileId}
          spellcheck={false}
          autocomplete="off"
          onInput={(event) => {
            setFileId(event.currentTarget.value);
          }}
        />
      </Field>
      <Field ids={ids.token} label={t('optionsFileToken')}>
        <input
          id={ids.token.input}
          type="password"
          value={fileToken}
          autocomplete="new-password"
          onInput={(event) => {
            setFileToken(event.currentTarget.value);
          }}
        />
      </Field>
      <div class="row actions">
        <button type="submit" disabled={busy}>
          {t('optionsDownload')}
        </button>
      </div>
      <NoticeLine notice={notice} />
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
