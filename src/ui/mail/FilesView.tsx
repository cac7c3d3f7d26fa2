/**
 * The files a reported mail carries, for the ticket: name, declared and detected type,
 * size and SHA-256. A file whose name or declared type lies about its content is flagged.
 * Nothing here opens or previews a file: every value is shown as text.
 */
import { t } from '../../i18n';
import type { MailAttachment } from '../../readers';
import { placeText } from './words';

function FileRow({ file }: { readonly file: MailAttachment }) {
  return (
    <tr>
      <td>
        <span class="mono">{file.name === '' ? t('mailFileUnnamed') : file.name}</span>
        {file.where !== 'mail' && <span class="muted small"> {placeText(file.where)}</span>}
      </td>
      <td>
        <span class="mono">{file.type === '' ? '—' : file.type}</span>
        {file.disguised && file.detected !== null && <span class="warn small"> {t('mailFileDisguised', file.detected)}</span>}
      </td>
      <td>{t('mailFileBytes', String(file.size))}</td>
      <td>
        <span class="mono hash">{file.sha256}</span>
      </td>
    </tr>
  );
}

/** The mail's files in a table; nothing when it carries none. */
export function FilesView({ files, id = 'mail' }: { readonly files: readonly MailAttachment[]; readonly id?: string }) {
  if (files.length === 0) return null;
  return (
    <section class="stack" aria-labelledby={`${id}-files-heading`}>
      <h3 id={`${id}-files-heading`}>{t('mailFilesHeading', String(files.length))}</h3>
      <table class="files" aria-labelledby={`${id}-files-heading`}>
        <thead>
          <tr>
            <th scope="col">{t('mailFileName')}</th>
            <th scope="col">{t('mailFileType')}</th>
            <th scope="col">{t('mailFileSize')}</th>
            <th scope="col">{t('mailFileHash')}</th>
          </tr>
        </thead>
        <tbody>
          {files.map((file, index) => (
            <FileRow key={`${String(index)} ${file.sha256}`} file={file} />
          ))}
        </tbody>
      </table>
    </section>
  );
}
