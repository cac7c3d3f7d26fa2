/**
 * The files of a drop or a choice as the page reads them: a dropped folder is walked
 * (DataTransferItem.webkitGetAsEntry), a folder chosen with the folder input gives its
 * files with their paths (webkitRelativePath). Walking stops after MANY_LIMITS.entries
 * entries, so a folder of millions cannot hold the page. Only names and sizes are looked
 * at here; a file's bytes are read later, and only a mail's.
 */
import type { MailFile } from './deps';
import { isMailName, MANY_LIMITS, type BatchFile } from './many';

/** What was given: its files, whether a folder was among them, files of folders left unlisted. */
export interface Gathered {
  readonly files: readonly BatchFile[];
  readonly folder: boolean;
  /** Entries not looked at once MANY_LIMITS.entries were (counted as other files). */
  readonly unlisted: number;
}

/** The parts of the File and Directory Entries API the walk uses. */
interface Entry {
  readonly isFile: boolean;
  readonly isDirectory: boolean;
  readonly name: string;
  readonly fullPath: string;
}
interface FileEntry extends Entry {
  file(success: (file: File) => void, failure?: (error: unknown) => void): void;
}
interface DirectoryEntry extends Entry {
  createReader(): { readEntries(success: (entries: Entry[]) => void, failure?: (error: unknown) => void): void };
}

/** Bytes that cannot be had: a file gone, or one never read (not a mail). */
function noBytes(): Promise<ArrayBuffer> {
  return Promise.reject(new Error());
}

/** A file given on its own. */
function given(file: MailFile): BatchFile {
  return { name: file.name, file, inFolder: false };
}

/** A path as the analyst knows it: without the walk's leading slash. */
function pathOf(entry: Entry): string {
  return entry.fullPath.replace(/^\/+/, '') || entry.name;
}

/** A file of a folder, its File got from the entry only when its bytes are read. */
function entryFile(entry: FileEntry): Promise<BatchFile> {
  return new Promise((resolve) => {
    entry.file(
      (file) => {
        resolve({ name: pathOf(entry), file, inFolder: true });
      },
      () => {
        // Gone or denied: read as a file whose bytes cannot be had, so it is named.
        resolve({ name: pathOf(entry), file: { name: entry.name, size: 0, arrayBuffer: noBytes }, inFolder: true });
      },
    );
  });
}

function readSome(reader: ReturnType<DirectoryEntry['createReader']>): Promise<Entry[]> {
  return new Promise((resolve) => {
    reader.readEntries(resolve, () => {
      resolve([]);
    });
  });
}

/**
 * The files of dropped entries, folders walked breadth first. Files that are not mails are
 * counted by the plan from their names; their File is not asked for.
 */
async function walk(roots: readonly Entry[], loose: readonly MailFile[]): Promise<Gathered> {
  const files: BatchFile[] = [];
  const queue: Entry[] = [...roots];
  let seen = 0;
  let unlisted = 0;
  let folder = false;
  for (let entry = queue.shift(); entry !== undefined; entry = queue.shift()) {
    if (seen >= MANY_LIMITS.entries) {
      unlisted++;
      continue;
    }
    seen++;
    if (entry.isDirectory) {
      folder = true;
      const reader = (entry as DirectoryEntry).createReader();
      // readEntries gives a folder's entries a batch at a time, until an empty one.
      for (let some = await readSome(reader); some.length > 0 && seen + queue.length < MANY_LIMITS.entries; some = await readSome(reader)) queue.push(...some);
    } else if (entry.isFile) {
      const inFolder = entry.fullPath.replace(/^\/+/, '').includes('/');
      if (!inFolder) {
        const file = loose.find((candidate) => candidate.name === entry.name);
        if (file !== undefined) files.push(given(file));
      } else if (isMailName(entry.name)) files.push(await entryFile(entry as FileEntry));
      else files.push({ name: pathOf(entry), file: { name: entry.name, size: 0, arrayBuffer: noBytes }, inFolder: true });
    }
  }
  return { files, folder, unlisted };
}

/** What a drop holds: its files, and the files of its folders. */
export function gatherDrop(transfer: DataTransfer | null): Promise<Gathered> {
  const loose = [...(transfer?.files ?? [])];
  const items = transfer?.items === undefined ? [] : [...transfer.items];
  // The entries must be asked for during the drop event; the walk goes on after it.
  const entries = items.flatMap((item) => {
    if (item.kind !== 'file' || typeof item.webkitGetAsEntry !== 'function') return [];
    const entry = item.webkitGetAsEntry() as Entry | null;
    return entry === null ? [] : [entry];
  });
  if (!entries.some((entry) => entry.isDirectory)) return Promise.resolve({ files: loose.map(given), folder: false, unlisted: 0 });
  return walk(entries, loose);
}

/** What the file inputs give: files chosen together, or a folder's files with their paths. */
export function gatherChosen(list: FileList | readonly File[] | null | undefined): Gathered {
  const files = [...(list ?? [])].map((file): BatchFile => {
    const path = file.webkitRelativePath;
    return typeof path === 'string' && path !== '' ? { name: path, file, inFolder: true } : given(file);
  });
  return { files, folder: files.some((file) => file.inFolder), unlisted: 0 };
}
