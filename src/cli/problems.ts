/**
 * The command's own failures, as data: a code and its values. The words (English, one
 * line, ending with what to do next) are written once, in `describe`, where they are
 * printed. Errors from the client (ApiError) are described here too.
 */
import { fillTemplate } from '../service/errors';
import { isApiError, isAuthError, isValidationError, type ApiError, type AuthCode } from '../api';

/** Exit statuses: the contract scripts rely on. */
export const EXIT = {
  ok: 0,
  /** The service refused, the network failed, some items of a bulk failed, or a diff found differences. */
  failed: 1,
  /** Usage or configuration: an unknown flag, a missing setting, a secret on the command line, bad input. */
  usage: 2,
} as const;

const USAGE_WORDS = {
  secretFlag: (flag, variables) =>
    `${flag} is not accepted: secrets on a command line are visible to other users and kept in shell history. Set ${variables} instead.`,
  unknownFlag: (flag, command) => `Unknown flag ${flag}. See 'isolink ${command} --help'.`,
  badFlag: (detail, command) => `${detail}. See 'isolink ${command} --help'.`,
  unknownCommand: (name) => `Unknown command '${name}'. See 'isolink --help' for the commands.`,
  missingCommand: (parent, choices) => `'isolink ${parent}' needs one of: ${choices}. See 'isolink ${parent} --help'.`,
  missingArgument: (what, command) => `Missing ${what}. See 'isolink ${command} --help'.`,
  extraArgument: (value, command) => `Unexpected argument '${value}'. See 'isolink ${command} --help'.`,
  notNumber: (flag) => `${flag} takes a positive whole number.`,
  missingSetting: (setting, variables) => `No ${setting} is set. Set ${variables}, or add it to the config file (see 'isolink --help').`,
  badSetting: (variable, detail) => `${variable} ${detail}. Fix it and try again.`,
  tokenFileUnreadable: (variable, path, reason) => `Cannot read the token file ${path} named by ${variable} (${reason}). Check the path and its permissions.`,
  tokenFileEmpty: (variable, path) => `The token file ${path} named by ${variable} is empty. Put the token in it.`,
  configUnreadable: (path, reason) => `Cannot read the config file ${path} (${reason}). Fix it, or set ISOLINK_CONFIG to another file.`,
  configInvalid: (path, detail) => `The config file ${path} is not valid: ${detail}. Fix it and try again.`,
  configSecret: (path, key, fileKey) => `The config file ${path} holds '${key}': keep secrets in a file of their own and name it with '${fileKey}'.`,
  inputUnreadable: (path, reason) => `Cannot read ${path} (${reason}). Check the path.`,
  outputUnwritable: (path, reason) => `Cannot write ${path} (${reason}). Check the path and its permissions.`,
  inputInvalid: (path, detail) => `${path}: ${detail}. Fix the file and try again.`,
  mailInvalid: (path, reason) =>
    `${path} ${reason}. Isolink reads a reported mail saved as .eml (MIME) or .msg (Outlook): save the report's attachment as a file and give that.`,
  urlRefused: (url, reason) => `Refused ${url}: it ${reason}. Nothing was sent; give the link's http(s) address.`,
  noUrls: (source) => `No http or https URL found in ${source}. Check the input (defanged links are found too).`,
  unknownEgress: (name) => `Unknown egress location '${name}'. 'isolink egress' lists them.`,
  notTerminal: () => `Refusing to write binary data to a terminal. Use -o <path>, or redirect stdout.`,
} satisfies Record<string, (...params: string[]) => string>;

export type CliProblemCode = keyof typeof USAGE_WORDS;

/**
 * A failure of the command itself, found before anything was sent (usage, configuration,
 * input): its code and the values its words name. Always exit status 2.
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly params: readonly string[];
  constructor(
    readonly code: CliProblemCode,
    ...params: string[]
  ) {
    super(code);
    this.params = params;
  }
}

function isCliError(error: unknown): error is CliError {
  return error instanceof CliError;
}

/** What to do after each kind of client error. */
const NEXT_STEP: Readonly<Record<Exclude<ApiError['name'], 'NetworkError' | 'TimeoutError'>, string>> = {
  ValidationError: 'Fix the value and try again.',
  AuthError: 'Check the admin token in ISOLINK_TOKEN or ISOLINK_TOKEN_FILE.',
  CommandError: 'Check the id or the values given, and try again.',
  HttpError: 'Try again later, or check that ISOLINK_SERVICE_URL is the isolation service.',
  ProtocolError: 'Check that ISOLINK_SERVICE_URL is the isolation service; report it if it is.',
};

/** The client's auth errors in the command's words (its own speak of the extension's options). */
const AUTH_WORDS: Readonly<Record<AuthCode, string>> = {
  authRejected: 'The service rejected the admin token.',
  authRejectedSaying: 'The service rejected the admin token ($1).',
  authRefusedHttp: 'The service refused the admin token (HTTP $1).',
  authNoToken: 'No admin token is set.',
  authMalformedToken: 'The admin token is malformed (empty, too long, or with control characters).',
};

/** The system error code of a failed file operation (`ENOENT`, `EACCES`), or 'unreadable'. */
export function errnoOf(error: unknown): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : 'unreadable';
}

/** One line of text: no control characters, no line breaks. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex -- a message is one line of plain text
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}

function withFullStop(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

/** The words for a failure: what went wrong, then what to do next. One line. */
export function describe(error: unknown): string {
  if (isCliError(error)) {
    const words: (...params: readonly string[]) => string = USAGE_WORDS[error.code];
    return oneLine(words(...error.params));
  }
  if (isAuthError(error)) return oneLine(`${fillTemplate(AUTH_WORDS[error.code], error.params)} ${NEXT_STEP.AuthError}`);
  if (isApiError(error)) {
    // The client's network and timeout messages already say what to do next.
    const saysNext = error.name === 'NetworkError' || error.name === 'TimeoutError';
    return oneLine(saysNext ? withFullStop(error.message) : `${withFullStop(error.message)} ${NEXT_STEP[error.name]}`);
  }
  return 'Unexpected failure. Run again with --verbose, and report it if it persists.';
}

/** The exit status for a failure. */
export function exitCodeOf(error: unknown): number {
  if (isCliError(error)) return EXIT.usage;
  // A value refused before anything was sent is the caller's input: a usage error.
  if (isValidationError(error)) return EXIT.usage;
  return EXIT.failed;
}
