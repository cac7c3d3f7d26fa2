/**
 * A scan for QR codes, as the background hands it to the page that reads it: the tab whose
 * visible pixels are read, and whether the scan is for an image in it (the menu on an
 * image) or for the whole tab. Isolink has no scripting permission, so it never measures
 * where the image is: both read what the tab shows. The background writes the page's
 * query (scanQuery); the page reads it back and checks it (readScanQuery), as any input.
 */

/** What to scan: the visible tab, for one image in it or for every code. */
export interface ScanRequest {
  readonly tabId: number;
  readonly windowId: number;
  readonly image: boolean;
}

/** The query of the page that scans: `?scan=<tab>.<window>`, `&image` for an image. */
export function scanQuery(request: ScanRequest): string {
  return `?scan=${String(request.tabId)}.${String(request.windowId)}${request.image ? '&image' : ''}`;
}

const SCAN = /^\?scan=(0|[1-9]\d{0,9})\.(0|[1-9]\d{0,9})(&image)?$/;

/** The scan a page's query asks for; null when it asks for none, or for one that is not well formed. */
export function readScanQuery(search: string): ScanRequest | null {
  const match = SCAN.exec(search);
  if (match === null) return null;
  return { tabId: Number(match[1]), windowId: Number(match[2]), image: match[3] !== undefined };
}
