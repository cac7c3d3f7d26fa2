/**
 * Display names of the quick toggle values.
 */
import { t, type MessageKey } from '../../i18n';
import type { ToggleChoice } from './isolate-state';

const TOGGLE_LABELS: Readonly<Record<ToggleChoice, MessageKey>> = {
  default: 'popupToggleDefault',
  block_all: 'popupToggleBlock',
  allow_all: 'popupToggleAllow',
};

export const toggleLabel = (choice: ToggleChoice): string => t(TOGGLE_LABELS[choice]);
