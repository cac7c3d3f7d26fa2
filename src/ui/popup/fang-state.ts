/**
 * State of the defang/refang tool: one text, converted in place.
 */
import { signal } from '@preact/signals';
import { defang, refang, unwrapText } from '../../fang';
import type { Notice } from '../common/notice';
import type { PopupDeps } from './deps';
import { copyNotice } from './notice';

export function createFangState(deps: PopupDeps) {
  const text = signal('');
  const notice = signal<Notice | null>(null);

  function convert(how: (value: string) => string): void {
    text.value = how(text.value);
    notice.value = null;
  }

  async function copy(): Promise<void> {
    notice.value = await copyNotice(deps.copyText, text.value);
  }

  return {
    text,
    notice,
    defang: () => {
      convert(defang);
    },
    refang: () => {
      convert(refang);
    },
    /** Refangs, then puts every wrapped link's real target in its place. */
    unwrap: () => {
      convert((value) => unwrapText(refang(value)));
    },
    copy,
  };
}

export type FangState = ReturnType<typeof createFangState>;
