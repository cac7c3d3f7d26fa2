/**
 * The reported mail page's state: one factory per page, no module-level state. The file's
 * bytes are kept in this closure only, never in storage, while the page shows its mail
 * (to read it again when the analyst chooses how wrapped links open).
 */
import { batch, computed, signal } from '@preact/signals';
import { defang } from '../../fang';
import { t } from '../../i18n';
import { MAX_BULK_URLS } from '../../messaging/limits';
import type { BulkResult, SettingsView, Status } from '../../messaging/protocol';
import type { ScanRequest } from '../../messaging/scan';
import type { ImageCode, ImageFailure, ImageReading, ImageReport, MailFailure, MailLink, MailReading, MailReport } from '../../readers';
import { MAIL_LIMITS } from '../../readers/limits';
import { imageHeader } from '../../readers/picture';
import { errorNotice, failureNotice, infoNotice, okNotice, type Notice } from '../common/notice';
import { createTask } from '../common/task';
import type { MailDeps, MailFile } from './deps';

/** How wrapped links were read, and so how they are sent: their real targets, or as written. */
export type ReadMode = 'unwrap' | 'keep';

/** The file as far as the page got with it. */
export type Phase =
  | { readonly kind: 'empty' }
  /** A scan's pixels could not be had: the grant was missing or had lapsed. */
  | { readonly kind: 'uncaptured' }
  | { readonly kind: 'reading'; readonly name: string }
  /** Over MAIL_LIMITS.bytes: not read at all. */
  | { readonly kind: 'tooLarge'; readonly name: string; readonly size: number }
  /** The browser could not give the file's bytes (it moved, or access was lost). */
  | { readonly kind: 'unopened'; readonly name: string }
  /** The reader's code could not be loaded (the extension was updated under the page). */
  | { readonly kind: 'noReader'; readonly name: string }
  | { readonly kind: 'failed'; readonly name: string; readonly failure: MailFailure }
  | { readonly kind: 'read'; readonly name: string; readonly report: MailReport; readonly mode: ReadMode }
  /** An image that could not be read as one (too large, too many pixels, undecodable). */
  | { readonly kind: 'unscanned'; readonly name: string; readonly failure: ImageFailure }
  /** An image read: its codes, and those that are links as the rows a mail's links make. */
  | { readonly kind: 'scanned'; readonly name: string; readonly image: ImageReport; readonly links: readonly MailLink[]; readonly mode: ReadMode };

/** A link Isolink could isolate: one with a target. */
export type OpenableLink = MailLink & { readonly target: string };

function isOpenable(link: MailLink): link is OpenableLink {
  return link.target !== null;
}

/** A link the analyst may choose between: decodable, wrapped by a gateway or redirector. */
function isWrapped(link: MailLink): boolean {
  return link.wrappedBy.length > 0 && !link.opaque;
}

/**
 * The links of an image's codes as the page lists a mail's: once per link, found in a QR
 * code of the file, never with a shown text (a code shows none).
 */
function codeLinks(name: string, codes: readonly ImageCode[]): MailLink[] {
  const rows = new Map<string, MailLink>();
  for (const code of codes) {
    if (code.url === null || rows.has(code.target ?? code.url)) continue;
    const { url, target, refused, wrappedBy, opaque } = code;
    rows.set(target ?? url, {
      url,
      target,
      ...(refused === undefined ? {} : { refused }),
      shown: null,
      mismatch: false,
      where: [`qr:${name}`],
      scriptOnly: false,
      wrappedBy,
      opaque,
    });
  }
  return [...rows.values()];
}

/** Indexes of every link that can be opened: all of them are selected at first. */
function openableIndexes(links: readonly MailLink[]): ReadonlySet<number> {
  return new Set(links.flatMap((link, index) => (isOpenable(link) ? [index] : [])));
}

export function createMailState(deps: MailDeps) {
  const status = signal<Status | null>(null);
  const settings = signal<SettingsView | null>(null);
  /** True once the first status and settings requests have settled. */
  const ready = signal(false);
  const loadNotice = signal<Notice | null>(null);
  const optionsNotice = signal<Notice | null>(null);
  /** About the last file chosen or dropped, beside the file input. */
  const fileNotice = signal<Notice | null>(null);
  const phase = signal<Phase>({ kind: 'empty' });
  /** A file is being dragged over the page. */
  const dragging = signal(false);
  const selected = signal<ReadonlySet<number>>(new Set());
  /** The analyst's answer for wrapped links, where the settings ask. */
  const choice = signal<ReadMode>('unwrap');
  const confirming = signal(false);
  const result = signal<BulkResult | null>(null);
  const task = createTask((error) => failureNotice(error, t('mailErrorNoAnswer')));

  const setting = computed(() => settings.value?.settings.unwrap ?? 'unwrap');
  const links = computed(() => {
    const current = phase.value;
    return current.kind === 'read' ? current.report.links : current.kind === 'scanned' ? current.links : [];
  });
  /** The selected links, in the mail's order. */
  const chosen = computed<OpenableLink[]>(() => links.value.filter((link, index): link is OpenableLink => isOpenable(link) && selected.value.has(index)));
  /** The settings ask, and a link is wrapped: the page offers the choice. */
  const asking = computed(() => setting.value === 'ask' && links.value.some(isWrapped));
  /** Above it, the page asks before opening (unknown settings: it always asks for more than one). */
  const threshold = computed(() => settings.value?.settings.bulkConfirmThreshold ?? 1);

  /** The file's bytes, in memory only, while its mail is shown. */
  let held: { readonly name: string; readonly bytes: Uint8Array } | null = null;
  /** Bumped by every new reading: an older one that ends later is dropped. */
  let generation = 0;
  let loading: Promise<void> = Promise.resolve();
  /** The reader, loaded with the first file and kept: its decoder (a frame, a worker) is made once for the page. */
  let readerLoad: ReturnType<MailDeps['loadReader']> | undefined;

  async function loadNow(): Promise<void> {
    const [statusReply, settingsReply] = await Promise.allSettled([deps.connector('getStatus', {}), deps.connector('getSettings', {})]);
    batch(() => {
      if (statusReply.status === 'fulfilled') status.value = statusReply.value;
      if (settingsReply.status === 'fulfilled') settings.value = settingsReply.value;
      const rejected = [statusReply, settingsReply].find((reply) => reply.status === 'rejected');
      loadNotice.value = rejected === undefined ? null : failureNotice(rejected.reason, t('mailErrorNoAnswer'));
      ready.value = true;
    });
  }

  /** Asks for the status and the settings; a file chosen meanwhile is read once they are in. */
  function load(): Promise<void> {
    loading = loadNow();
    return loading;
  }

  /** What a new reading starts from: no selection, no confirmation, no result. */
  function clearOutcome(): void {
    batch(() => {
      selected.value = new Set();
      confirming.value = false;
      result.value = null;
      task.notice.value = null;
    });
  }

  /** Reads the held bytes with the mode in force; `quiet` keeps the mail shown meanwhile. */
  async function read(mine: number, quiet: boolean): Promise<void> {
    const file = held;
    if (file === null) return;
    if (!quiet) phase.value = { kind: 'reading', name: file.name };
    let reader;
    try {
      readerLoad ??= deps.loadReader();
      reader = await readerLoad;
    } catch {
      // Tried again with the next file.
      readerLoad = undefined;
      if (mine === generation) phase.value = { kind: 'noReader', name: file.name };
      return;
    }
    await loading;
    const mode: ReadMode = setting.value === 'ask' ? choice.value : setting.value;
    const { linksInImage, decoder } = reader;
    if (linksInImage !== undefined && decoder !== undefined && imageHeader(file.bytes) !== null) {
      const image = await readImage(() => linksInImage(file.bytes, { decoder, unwrap: mode }));
      if (mine === generation) showImage(file.name, image, mode);
      return;
    }
    let reading: MailReading;
    try {
      reading = await reader.linksInMail(file.bytes, { unwrap: mode, name: file.name, ...(reader.decoder === undefined ? {} : { decoder: reader.decoder }) });
    } catch (error) {
      // The reader answers its failures as data; a throw would be its bug, said as a damaged mail.
      const detail = error instanceof Error ? error.message : String(error);
      reading = { ok: false, code: 'mailUnreadable', params: [detail], reason: detail };
    }
    if (mine !== generation) return;
    batch(() => {
      clearOutcome();
      if (reading.ok) {
        phase.value = { kind: 'read', name: file.name, report: reading, mode };
        selected.value = openableIndexes(reading.links);
      } else {
        held = null;
        phase.value = { kind: 'failed', name: file.name, failure: reading };
      }
    });
  }

  /** An image's reading; a throw (the reader's bug) is said as an undecodable image. */
  async function readImage(reading: () => Promise<ImageReading>): Promise<ImageReading> {
    try {
      return await reading();
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return { ok: false, code: 'imageUnreadable', params: [detail], reason: detail };
    }
  }

  function showImage(name: string, image: ImageReading, mode: ReadMode): void {
    batch(() => {
      clearOutcome();
      if (!image.ok) {
        held = null;
        phase.value = { kind: 'unscanned', name, failure: image };
        return;
      }
      const rows = codeLinks(name, image.codes);
      phase.value = { kind: 'scanned', name, image, links: rows, mode };
      selected.value = openableIndexes(rows);
    });
  }

  /** A file chosen or dropped: its size is checked before anything of it is read. */
  async function chooseFile(file: MailFile): Promise<void> {
    const mine = ++generation;
    held = null;
    clearOutcome();
    if (file.size > MAIL_LIMITS.bytes) {
      phase.value = { kind: 'tooLarge', name: file.name, size: file.size };
      return;
    }
    phase.value = { kind: 'reading', name: file.name };
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await file.arrayBuffer());
    } catch {
      if (mine === generation) phase.value = { kind: 'unopened', name: file.name };
      return;
    }
    if (mine !== generation) return;
    held = { name: file.name, bytes };
    await read(mine, false);
  }

  /**
   * A scan from the context menu or the shortcut: the tab's pixels are read behind it. One
   * code whose link can be isolated is isolated at once and the page closes, as a link
   * would open; anything else (several codes, none, a refusal, a failure) is shown, and
   * nothing opens until chosen.
   */
  async function scan(request: ScanRequest): Promise<void> {
    const mine = ++generation;
    let file: MailFile;
    try {
      file = await deps.capture(request);
    } catch {
      if (mine === generation) phase.value = { kind: 'uncaptured' };
      await deps.showPage();
      return;
    }
    await chooseFile(file);
    const current = phase.value;
    const only = links.value[0];
    if (current.kind === 'scanned' && current.image.codes.length === 1 && links.value.length === 1 && only !== undefined && isOpenable(only)) {
      await create([only]);
      if (result.value?.created.length === 1 && result.value.failures.length === 0) {
        await deps.closePage();
        return;
      }
    }
    await deps.showPage();
  }

  /** What was dropped on the page: its first file is read; anything else is said. */
  function drop(files: readonly MailFile[]): Promise<void> {
    const [first] = files;
    if (first === undefined) {
      fileNotice.value = errorNotice(t('mailDropNoFile'));
      return Promise.resolve();
    }
    fileNotice.value = files.length > 1 ? infoNotice(t('mailDropFirstOnly', first.name)) : null;
    return chooseFile(first);
  }

  /** A file chosen with the file input. */
  function pick(file: MailFile | undefined): Promise<void> {
    fileNotice.value = null;
    return file === undefined ? Promise.resolve() : chooseFile(file);
  }

  /** The analyst's answer for wrapped links: the mail is read again with it. */
  function chooseWrapped(next: ReadMode): Promise<void> {
    if (choice.value === next) return Promise.resolve();
    choice.value = next;
    if (held === null) return Promise.resolve();
    return read(++generation, true);
  }

  function toggle(index: number, checked: boolean): void {
    const next = new Set(selected.value);
    if (checked) next.add(index);
    else next.delete(index);
    batch(() => {
      selected.value = next;
      // The question named a count: a new selection is asked about again.
      confirming.value = false;
    });
  }

  async function create(list: readonly OpenableLink[]): Promise<void> {
    const current = phase.value;
    if ((current.kind !== 'read' && current.kind !== 'scanned') || list.length === 0) return;
    await task.run(async () => {
      result.value = null;
      // One message: the background resolves each link again and batches the requests.
      const reply = await deps.connector('bulkCreate', { urls: list.map((link) => link.url), wrapped: current.mode });
      result.value = reply;
      if (reply.created.length === 0) return errorNotice(t('mailCreatedNone'));
      const { opened } = await deps.connector('openContexts', { ids: reply.created.map((context) => context.id) });
      return okNotice(t('mailOpenedCount', String(opened)));
    });
  }

  /** "Open selected in isolation": said when nothing or too much is selected, asked first above the threshold. */
  function openSelected(): Promise<void> {
    const list = chosen.value;
    if (list.length === 0) {
      task.notice.value = errorNotice(t('mailNoneSelected'));
      return Promise.resolve();
    }
    if (list.length > MAX_BULK_URLS) {
      task.notice.value = errorNotice(t('mailTooMany', [String(list.length), String(MAX_BULK_URLS)]));
      return Promise.resolve();
    }
    if (list.length > threshold.value) {
      task.notice.value = null;
      confirming.value = true;
      return Promise.resolve();
    }
    return create(list);
  }

  async function confirmOpen(): Promise<void> {
    await create(chosen.value);
    confirming.value = false;
  }

  function cancelOpen(): void {
    confirming.value = false;
  }

  /** The selected targets defanged, one per line: a ticket's text. */
  async function copySelected(): Promise<void> {
    const list = chosen.value;
    if (list.length === 0) {
      task.notice.value = errorNotice(t('mailNoneSelected'));
      return;
    }
    try {
      await deps.copyText(list.map((link) => defang(link.target)).join('\n'));
      task.notice.value = okNotice(t('mailCopied', String(list.length)));
    } catch {
      task.notice.value = errorNotice(t('mailCopyFailed'));
    }
  }

  async function openOptions(): Promise<void> {
    try {
      await deps.openOptions();
      optionsNotice.value = null;
    } catch {
      optionsNotice.value = errorNotice(t('mailOptionsFailed'));
    }
  }

  return {
    status,
    settings,
    ready,
    loadNotice,
    optionsNotice,
    fileNotice,
    phase,
    dragging,
    selected,
    choice,
    asking,
    chosen,
    confirming,
    result,
    busy: task.busy,
    notice: task.notice,
    load,
    pick,
    drop,
    scan,
    chooseWrapped,
    toggle,
    openSelected,
    confirmOpen,
    cancelOpen,
    copySelected,
    openOptions,
  };
}

export type MailState = ReturnType<typeof createMailState>;
