/**
 * Limits of what the pages send, without zod: ./protocol builds its schemas from them,
 * and the pages check their input against them before sending, so both always agree.
 */

/** Largest file the options page may upload through the background. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;
/** Most links one bulkCreate carries. */
export const MAX_BULK_URLS = 500;
/** Longest context name updateContext carries. */
export const MAX_CONTEXT_NAME_LENGTH = 256;
