/** The one message the background sends to its offscreen document (Chrome). */
export const OFFSCREEN_COPY = 'isolink-offscreen-copy';

export interface OffscreenCopyMessage {
  readonly target: typeof OFFSCREEN_COPY;
  readonly text: string;
}

export function isOffscreenCopy(message: unknown): message is OffscreenCopyMessage {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { target?: unknown }).target === OFFSCREEN_COPY &&
    typeof (message as { text?: unknown }).text === 'string'
  );
}
