/**
 * The "Isolate automatically" section's draft: three lists typed one domain a line, and
 * what they mean in words. No zod: what is saved is checked by the settings' schema.
 */
import { AUTO_ISOLATE_LIMITS, domainEntryOf, type AutoIsolate } from '../../autoisolate';

export type ListKey = 'from' | 'to' | 'except';
export const LIST_KEYS: readonly ListKey[] = ['from', 'to', 'except'];

export interface AutoIsolateDraft {
  readonly from: string;
  readonly to: string;
  readonly except: string;
  readonly ask: boolean;
}

export function draftOf(config: AutoIsolate): AutoIsolateDraft {
  return { from: config.from.join('\n'), to: config.to.join('\n'), except: config.except.join('\n'), ask: config.ask };
}

/** A list as typed: its entries in stored form (each once, in order), and the lines that are no domain. */
export interface ParsedList {
  readonly entries: string[];
  readonly bad: string[];
  readonly tooMany: boolean;
}

function parseList(text: string, key: ListKey): ParsedList {
  const entries: string[] = [];
  const bad: string[] = [];
  for (const line of text.split(/[\n,]/u)) {
    if (line.trim() === '') continue;
    const entry = domainEntryOf(line);
    if (entry === null) bad.push(line.trim().slice(0, 80));
    else if (!entries.includes(entry)) entries.push(entry);
  }
  return { entries, bad, tooMany: entries.length > AUTO_ISOLATE_LIMITS[key] };
}

/** The configuration a draft stands for, with each list's problems; the configuration only when there are none. */
export function configOf(draft: AutoIsolateDraft): { readonly config: AutoIsolate | null; readonly lists: Readonly<Record<ListKey, ParsedList>> } {
  const lists = { from: parseList(draft.from, 'from'), to: parseList(draft.to, 'to'), except: parseList(draft.except, 'except') };
  const ok = LIST_KEYS.every((key) => lists[key].bad.length === 0 && !lists[key].tooMany);
  return { config: ok ? { from: lists.from.entries, to: lists.to.entries, except: lists.except.entries, ask: draft.ask } : null, lists };
}
