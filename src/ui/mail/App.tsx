/**
 * The reported mail page: choose or drop a mail (.eml, .msg), see who it claims to be from
 * and every link in it as Isolink would isolate it, and open the chosen ones in isolation.
 * Nothing of the mail is shown as the mail would show it: its text is never rendered as
 * HTML, nothing it points at is loaded, and its bytes stay in this page's memory.
 */
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { browser } from 'wxt/browser';
import { t } from '../../i18n';
import { openOptionsAt } from '../../messaging/options';
import { sendToBackground, type Connector } from '../../messaging/page';
import { readScanQuery } from '../../messaging/scan';
import { MAIL_LIMITS } from '../../readers/limits';
import { NoticeLine } from '../common/NoticeLine';
import type { MailDeps } from './deps';
import { gatherChosen, gatherDrop } from './folder';
import { ImageView } from './ImageView';
import { MailView } from './MailView';
import { MANY_LIMITS } from './many';
import { ManyView } from './ManyView';
import { createMailState, type MailState } from './state';
import { failureText, imageFailureText, mebibytes } from './words';

export interface AppProps {
  readonly connector?: Connector;
  readonly copyText?: MailDeps['copyText'];
  readonly openOptions?: MailDeps['openOptions'];
  readonly loadReader?: MailDeps['loadReader'];
  readonly capture?: MailDeps['capture'];
  readonly showPage?: MailDeps['showPage'];
  readonly closePage?: MailDeps['closePage'];
  /** The page's query: a scan to run when it opens (src/messaging/scan). */
  readonly search?: string;
}

const copyToClipboard = (text: string): Promise<void> => navigator.clipboard.writeText(text);
/** The page offers the options when Isolink is not set up: the connection is what to fix. */
const openOptionsPage = (): Promise<void> => openOptionsAt('connection');
/**
 * The reader is the decoder (a sandboxed frame; a worker in Firefox), loaded with the first
 * file: a mail is read there whole, so this page never parses one. An image given alone is
 * checked here (its size, its header) and its pixels decoded there.
 */
const importReader: MailDeps['loadReader'] = async () => {
  const [{ linksInImage }, { frameReaders }] = await Promise.all([import('../../readers/image'), import('../decoder/frame')]);
  const { image, mail } = frameReaders();
  return { linksInMail: mail, linksInImage, decoder: image };
};

/** A scan's pixels; the capture's code is loaded only by a page opened for a scan. */
const captureTab: MailDeps['capture'] = async (request) => {
  const { captureScan } = await import('./capture');
  return captureScan(request, { tab: t('qrScanTabName'), image: t('qrScanImageName') });
};

/** The tab this page is in, when it is in one. */
async function ownTab(): Promise<{ readonly id?: number | undefined } | undefined> {
  return browser.tabs.getCurrent();
}

const showThisPage: MailDeps['showPage'] = async () => {
  const tab = await ownTab();
  if (tab?.id !== undefined) await browser.tabs.update(tab.id, { active: true });
};

const closeThisPage: MailDeps['closePage'] = async () => {
  const tab = await ownTab();
  if (tab?.id !== undefined) await browser.tabs.remove(tab.id);
};

/**
 * The types the file input takes: mails by extension and by MIME type, the attachments
 * saved from them (pages, SVGs, PDFs, zips, Office and RTF documents), and the images read for codes.
 */
const ACCEPT = [
  '.eml,.msg,message/rfc822,application/vnd.ms-outlook,.html,.htm,text/html,.svg,image/svg+xml,.pdf,application/pdf,image/png,image/jpeg,image/gif,image/webp,image/bmp',
  '.zip,application/zip,application/x-zip-compressed,.rtf,application/rtf,text/rtf',
  '.docx,.docm,.dotx,.dotm,.xlsx,.xlsm,.pptx,.pptm',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
].join(',');

function Setup({ state }: { readonly state: MailState }) {
  const status = state.status.value;
  return (
    <>
      <NoticeLine notice={state.loadNotice.value} />
      {status?.configured === false && (
        <div class="card setup" role="region" aria-labelledby="mail-setup">
          <p id="mail-setup" class="warn">
            {t('mailNotSetUp')}
          </p>
          {status.problems.length > 0 && (
            <ul>
              {status.problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          )}
          <button type="button" onClick={() => void state.openOptions()}>
            {t('mailOpenOptions')}
          </button>
          <NoticeLine notice={state.optionsNotice.value} />
        </div>
      )}
    </>
  );
}

function Picker({ state }: { readonly state: MailState }) {
  return (
    <div class={state.dragging.value ? 'picker card dragging' : 'picker card'}>
      <label for="mail-file">{t('mailFileLabel')}</label>
      <input
        id="mail-file"
        type="file"
        accept={ACCEPT}
        multiple
        aria-describedby="mail-file-hint mail-many-hint"
        onChange={(event) => {
          const input = event.currentTarget;
          void state.pick(gatherChosen(input.files));
          // The same file chosen again is read again.
          input.value = '';
        }}
      />
      <p id="mail-file-hint" class="hint muted">
        {t('mailFileHint', String(MAIL_LIMITS.bytes / 1024 / 1024))}
      </p>
      <label for="mail-folder">{t('mailFolderLabel')}</label>
      <input
        id="mail-folder"
        type="file"
        multiple
        // Chromium and Firefox: the files of a chosen folder, each with its path.
        {...{ webkitdirectory: true }}
        aria-describedby="mail-many-hint"
        onChange={(event) => {
          const input = event.currentTarget;
          void state.pick({ ...gatherChosen(input.files), folder: true });
          input.value = '';
        }}
      />
      <p id="mail-many-hint" class="hint muted">
        {t('mailManyHint', [String(MANY_LIMITS.files), String(MANY_LIMITS.bytes / 1024 / 1024)])}
      </p>
      <p class="drop-hint">{state.dragging.value ? t('mailDropNow') : t('mailDropHint')}</p>
      <NoticeLine notice={state.fileNotice.value} />
    </div>
  );
}

/** Where the file got to: reading, read, or why not and what to do. */
function Outcome({ state }: { readonly state: MailState }) {
  const phase = state.phase.value;
  switch (phase.kind) {
    case 'empty':
      return <p class="notice" role="status" />;
    case 'uncaptured':
      return (
        <p class="notice error" role="alert">
          {t('qrCaptureFailed')}
        </p>
      );
    case 'reading':
      return (
        <p class="notice muted" role="status">
          {t('mailReading', phase.name)}
        </p>
      );
    case 'tooLarge':
      return (
        <p class="notice error" role="alert">
          {t('mailFileTooLarge', [phase.name, mebibytes(phase.size), String(MAIL_LIMITS.bytes / 1024 / 1024)])}
        </p>
      );
    case 'unopened':
      return (
        <p class="notice error" role="alert">
          {t('mailFileUnopened', phase.name)}
        </p>
      );
    case 'noReader':
      return (
        <p class="notice error" role="alert">
          {t('mailReaderFailed')}
        </p>
      );
    case 'failed':
      return (
        <p class="notice error" role="alert">
          {failureText(phase.name, phase.failure)}
        </p>
      );
    case 'read':
      return (
        <>
          <p class="notice ok" role="status">
            {t('mailRead', [phase.name, String(phase.report.links.length)])}
          </p>
          <MailView state={state} name={phase.name} report={phase.report} mode={phase.mode} />
        </>
      );
    case 'readingMany':
      return (
        <p class="notice muted" role="status">
          {t('mailReadingMany', [String(Math.max(phase.place, 1)), String(phase.total), phase.name])}
        </p>
      );
    case 'many':
      return (
        <>
          <p class="notice ok" role="status">
            {t('mailManyRead', [String(phase.batch.reads.length), String(phase.batch.targets.length)])}
          </p>
          <ManyView state={state} batch={phase.batch} mode={phase.mode} />
        </>
      );
    case 'unscanned':
      return (
        <p class="notice error" role="alert">
          {imageFailureText(phase.name, phase.failure)}
        </p>
      );
    case 'scanned':
      return (
        <>
          <p class="notice ok" role="status">
            {t('qrRead', [phase.name, String(phase.links.length)])}
          </p>
          <ImageView state={state} name={phase.name} image={phase.image} links={phase.links} mode={phase.mode} />
        </>
      );
  }
}

/** Files dragged over the page or pasted: anything dropped anywhere is taken here, never opened by the browser. */
function useDrop(state: MailState): void {
  useEffect(() => {
    let depth = 0;
    const hasFiles = (event: DragEvent): boolean => event.dataTransfer?.types.includes('Files') === true;
    const enter = (event: DragEvent): void => {
      event.preventDefault();
      depth += 1;
      if (hasFiles(event)) state.dragging.value = true;
    };
    const over = (event: DragEvent): void => {
      // Without this the browser would open what is dropped (a file, or a link) in the tab.
      event.preventDefault();
      if (event.dataTransfer !== null) event.dataTransfer.dropEffect = hasFiles(event) ? 'copy' : 'none';
    };
    const leave = (): void => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) state.dragging.value = false;
    };
    const drop = (event: DragEvent): void => {
      event.preventDefault();
      depth = 0;
      state.dragging.value = false;
      // A dropped folder's entries are asked for now; its files are listed after the event.
      void gatherDrop(event.dataTransfer).then((gathered) => state.drop(gathered));
    };
    // A screenshot pasted (Ctrl+V) is a file too; text pasted into a field is left to the field.
    const paste = (event: ClipboardEvent): void => {
      const files = [...(event.clipboardData?.files ?? [])];
      if (files.length === 0) return;
      event.preventDefault();
      void state.drop(gatherChosen(files));
    };
    document.addEventListener('dragenter', enter);
    document.addEventListener('dragover', over);
    document.addEventListener('dragleave', leave);
    document.addEventListener('drop', drop);
    document.addEventListener('paste', paste);
    return () => {
      document.removeEventListener('dragenter', enter);
      document.removeEventListener('dragover', over);
      document.removeEventListener('dragleave', leave);
      document.removeEventListener('drop', drop);
      document.removeEventListener('paste', paste);
    };
  }, [state]);
}

export function App({
  connector = sendToBackground,
  copyText = copyToClipboard,
  openOptions = openOptionsPage,
  loadReader = importReader,
  capture = captureTab,
  showPage = showThisPage,
  closePage = closeThisPage,
  search = location.search,
}: AppProps) {
  const [state] = useState(() => createMailState({ connector, copyText, openOptions, loadReader, capture, showPage, closePage }));
  // Asked for right after the first render, not after the first paint (see the popup's App).
  useLayoutEffect(() => {
    void state.load();
    const request = readScanQuery(search);
    if (request !== null) void state.scan(request);
  }, [state, search]);
  useDrop(state);
  return (
    <main class="mail-page" data-ready={state.ready.value ? 'true' : 'false'} aria-busy={state.ready.value ? undefined : 'true'}>
      <header class="stack">
        <h1>{t('mailHeading')}</h1>
        <p class="muted">{t('mailIntro')}</p>
        <Setup state={state} />
      </header>
      <Picker state={state} />
      <Outcome state={state} />
    </main>
  );
}
