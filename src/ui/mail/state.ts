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
import { caseNote } from '../../readers/note';
import { imageHeader } from '../../readers/picture';
import { errorNotice, failureNotice, okNotice, type Notice } from '../common/notice';
import { createTask } from '../common/task';
import type { MailDeps, MailFile } from './deps';
import type { Gathered } from './folder';
import { planBatch, readBatch, type Batch, type BatchPlan } from './many';

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
  | { readonly kind: 'scanned'; readonly name: string; readonly image: ImageReport; readonly links: readonly MailLink[]; readonly mode: ReadMode }
  /** Several files being read, one after another: the place of the one being read (from 1). */
  | { readonly kind: 'readingMany'; readonly place: number; readonly total: number; readonly name: string }
  /** Several files read: the mails, those that could not be, and their targets gathered. */
  | { readonly kind: 'many'; readonly batch: Batch; readonly mode: ReadMode };

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
  /** About the case note copied, beside its button. */
  const noteNotice = signal<Notice | null>(null);
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
    if (current.kind === 'many') return current.batch.targets.map((entry) => entry.link);
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
  /** Several files shown: what was read of them (their bytes are read again, never kept). */
  let heldPlan: BatchPlan | null = null;
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
      noteNotice.value = null;
    });
  }

  /** The reader, loaded once; undefined (and the page told) when its code cannot be loaded. */
  async function reader(mine: number, name: string): Promise<Awaited<ReturnType<MailDeps['loadReader']>> | undefined> {
    try {
      readerLoad ??= deps.loadReader();
      return await readerLoad;
    } catch {
      // Tried again with the next file.
      readerLoad = undefined;
      if (mine === generation) phase.value = { kind: 'noReader', name };
      return undefined;
    }
  }

  /** How wrapped links are read now: the settings', or the analyst's answer where they ask. */
  function modeNow(): ReadMode {
    return setting.value === 'ask' ? choice.value : setting.value;
  }

  /** One mail's bytes read; a throw (the reader's bug) is said as a damaged mail. */
  async function readMail(loaded: Awaited<ReturnType<MailDeps['loadReader']>>, bytes: Uint8Array, mode: ReadMode, name: string): Promise<MailReading> {
    try {
      // The name tells a saved page or SVG given on its own when its content does not (a PDF tells itself).
      return await loaded.linksInMail(bytes, {
        unwrap: mode,
        name,
        ...(loaded.decoder === undefined ? {} : { decoder: loaded.decoder }),
        ...(loaded.pdf === undefined ? {} : { pdf: loaded.pdf }),
      });
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return { ok: false, code: 'mailUnreadable', params: [detail], reason: detail };
    }
  }

  /** Reads the held bytes with the mode in force; `quiet` keeps the mail shown meanwhile. */
  async function read(mine: number, quiet: boolean): Promise<void> {
    const file = held;
    if (file === null) return;
    if (!quiet) phase.value = { kind: 'reading', name: file.name };
    const loaded = await reader(mine, file.name);
    if (loaded === undefined) return;
    await loading;
    const mode = modeNow();
    const { linksInImage, decoder } = loaded;
    if (linksInImage !== undefined && decoder !== undefined && imageHeader(file.bytes) !== null) {
      const image = await readImage(() => linksInImage(file.bytes, { decoder, unwrap: mode }));
      if (mine === generation) showImage(file.name, image, mode);
      return;
    }
    const reading = await readMail(loaded, file.bytes, mode, file.name);
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

  /** Several files read one after another, each within the limits; the batch's plan kept to read again. */
  async function readPlan(mine: number, plan: BatchPlan): Promise<void> {
    heldPlan = plan;
    phase.value = { kind: 'readingMany', place: 0, total: plan.read.length, name: '' };
    const loaded = await reader(mine, '');
    if (loaded === undefined) return;
    await loading;
    const mode = modeNow();
    const batchRead = await readBatch(plan, {
      read: (bytes, name) => readMail(loaded, bytes, mode, name),
      progress: (place, total, name) => {
        phase.value = { kind: 'readingMany', place, total, name };
      },
      current: () => mine === generation,
    });
    if (batchRead === null) return;
    batch(() => {
      clearOutcome();
      phase.value = { kind: 'many', batch: batchRead, mode };
      selected.value = openableIndexes(batchRead.targets.map((entry) => entry.link));
    });
  }

  /** Several files, or a folder: planned within the limits, then read one after another. */
  function chooseMany(gathered: Gathered): Promise<void> {
    const mine = ++generation;
    held = null;
    clearOutcome();
    return readPlan(mine, planBatch(gathered.files, gathered.unlisted));
  }

  /** What was chosen or dropped: one file is read as it always was; several, or a folder, together. */
  function chooseGathered(gathered: Gathered): Promise<void> {
    const [first] = gathered.files;
    if (!gathered.folder && gathered.files.length === 1 && first !== undefined) return chooseFile(first.file);
    return chooseMany(gathered);
  }

  /** A file chosen or dropped: its size is checked before anything of it is read. */
  async function chooseFile(file: MailFile): Promise<void> {
    const mine = ++generation;
    held = null;
    heldPlan = null;
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

  /** What was dropped or pasted on the page: its files and folders are read; anything else is said. */
  function drop(gathered: Gathered): Promise<void> {
    if (gathered.files.length === 0 && !gathered.folder) {
      fileNotice.value = errorNotice(t('mailDropNoFile'));
      return Promise.resolve();
    }
    fileNotice.value = null;
    return chooseGathered(gathered);
  }

  /** What the file inputs gave: a file, several, or a folder's. */
  function pick(gathered: Gathered): Promise<void> {
    fileNotice.value = null;
    return gathered.files.length === 0 && !gathered.folder ? Promise.resolve() : chooseGathered(gathered);
  }

  /** The analyst's answer for wrapped links: the mail is read again with it. */
  function chooseWrapped(next: ReadMode): Promise<void> {
    if (choice.value === next) return Promise.resolve();
    choice.value = next;
    if (heldPlan !== null) return readPlan(++generation, heldPlan);
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
    if ((current.kind !== 'read' && current.kind !== 'scanned' && current.kind !== 'many') || list.length === 0) return;
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

  /** A mail's case note (Markdown for a ticket, every link defanged) on the clipboard, by the same path as the links. */
  async function copyNoteOf(report: MailReport, name: string): Promise<Notice> {
    try {
      await deps.copyText(caseNote(report, name));
      return okNotice(t('mailNoteCopied'));
    } catch {
      return errorNotice(t('mailCopyFailed'));
    }
  }

  /** The case note of the one mail read. */
  async function copyNote(): Promise<void> {
    const current = phase.value;
    if (current.kind !== 'read') return;
    noteNotice.value = await copyNoteOf(current.report, current.name);
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
    noteNotice,
    copyNoteOf,
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
    copyNote,
    openOptions,
  };
}

export type MailState = ReturnType<typeof createMailState>;
