import { t } from '../../i18n';

/** The field an error names, when it names one (RemoteError and ValidationError carry `field`). */
export function errorField(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('field' in error)) return undefined;
  const field: unknown = error.field;
  return typeof field === 'string' && field !== '' ? field : undefined;
}

/** Words for an error: its message, with the field it names when the message leaves it out. */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return t('optionsErrorUnknown');
  const message = error.message.trim();
  if (message === '') return t('optionsErrorUnknown');
  const field = errorField(error);
  return field !== undefined && !message.includes(field) ? `${field}: ${message}` : message;
}
