/** Bytes to and from base64 (messages carry JSON only), and saving a Blob as a download. */

/** Characters per String.fromCharCode call: well under any engine's argument limit. */
const CHUNK = 0x8000;

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let start = 0; start < bytes.length; start += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(start, start + CHUNK));
  }
  return btoa(binary);
}

/** Decodes base64; throws on text that is not base64. */
export function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * How long the object URL outlives the click. Some browsers read a download's blob
 * after the click returns; revoking at once can cancel it.
 */
const REVOKE_AFTER_MS = 40_000;

/** Offers `blob` as a download named `fileName` through a temporary `<a download>`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    setTimeout(() => {
      URL.revokeObjectURL(url);
    }, REVOKE_AFTER_MS);
  }
}

/** A download name from text the service chose: safe characters only, never empty. */
export function safeFileName(text: string, fallback: string): string {
  let out = '';
  for (const ch of text) {
    const ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch === '.' || ch === '-' || ch === '_';
    out += ok ? ch : '_';
    if (out.length >= 100) break;
  }
  while (out.startsWith('.')) out = out.slice(1);
  return out === '' ? fallback : out;
}
