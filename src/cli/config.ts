/**
 * Where the command's settings come from, strongest first: flags, the environment
 * (ISOLINK_*), then a JSON config file ($ISOLINK_CONFIG, else
 * $XDG_CONFIG_HOME/isolink/config.json, else ~/.config/isolink/config.json).
 *
 * Secrets come only from the environment or from files named there or in the config
 * file: never from a flag, never written in the config file itself. Everything read is
 * checked at this edge; a bad value is a usage error naming where it came from.
 */
import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import * as z from 'zod/mini';

import { createClient, type IsolinkClient } from '../api';
import { checkServiceBase } from '../net/url';
import { MAX_POLICY_PARAM_LENGTH } from '../policy';
import { UNWRAP_MODES } from '../resolve';
import { CliError, errnoOf } from './problems';
import type { CliIo, Output } from './output';

/** The environment variables read, by what they set. */
export const ENV = {
  config: 'ISOLINK_CONFIG',
  serviceUrl: 'ISOLINK_SERVICE_URL',
  launchUrl: 'ISOLINK_LAUNCH_URL',
  token: 'ISOLINK_TOKEN',
  tokenFile: 'ISOLINK_TOKEN_FILE',
  username: 'ISOLINK_USERNAME',
  org: 'ISOLINK_ORG',
  fileToken: 'ISOLINK_FILE_TOKEN',
  fileTokenFile: 'ISOLINK_FILE_TOKEN_FILE',
  bucket: 'ISOLINK_BUCKET_ID',
} as const;

/** Keys a config file may not hold: secrets live in files of their own. */
const SECRET_KEYS: Readonly<Record<string, string>> = { token: 'tokenFile', fileToken: 'fileTokenFile', password: 'tokenFile' };

const text = z.string().check(z.minLength(1), z.maxLength(4096));

/** The config file: every key optional; unknown keys refused (a typo must not pass silently). */
const configFileSchema = z.strictObject({
  serviceUrl: z.optional(text),
  launchUrl: z.optional(text),
  tokenFile: z.optional(text),
  fileTokenFile: z.optional(text),
  username: z.optional(text),
  org: z.optional(text),
  bucket: z.optional(text),
  /** Defaults for the contexts `open` and `bulk` create. */
  defaults: z.optional(
    z.strictObject({
      maxUses: z.optional(z.int().check(z.gte(1))),
      /** Seconds from creation. */
      expiresIn: z.optional(z.int().check(z.gte(1))),
      /** Policy entries, as the service takes them ({ type, params }). */
      policy: z.optional(z.array(z.strictObject({ type: text, params: z.array(z.string().check(z.maxLength(MAX_POLICY_PARAM_LENGTH))) }))),
      autoDomainAllow: z.optional(z.boolean()),
      /** What to do with a link a mail gateway or redirector rewrote: isolate the real target, or the link as it is. */
      unwrap: z.optional(z.enum(UNWRAP_MODES.filter((mode) => mode !== 'ask') as ['unwrap', 'keep'])),
    }),
  ),
});

type ConfigFile = z.infer<typeof configFileSchema>;

/** Settings as read, before anything needs them. */
export interface Settings {
  readonly env: CliIo['env'];
  readonly cwd: string;
  readonly file: ConfigFile;
  /** Where the config file was read from, if one was. */
  readonly filePath: string | undefined;
}

function defaultConfigPath(env: CliIo['env']): string {
  const xdg = env['XDG_CONFIG_HOME'];
  const base = xdg !== undefined && isAbsolute(xdg) ? xdg : join(env['HOME'] ?? homedir(), '.config');
  return join(base, 'isolink', 'config.json');
}

/** Settings without a config file: what a command that needs no configuration runs with. */
export function noSettings(io: CliIo): Settings {
  return { env: io.env, cwd: io.cwd ?? process.cwd(), file: {}, filePath: undefined };
}

/** Reads the config file, if there is one. A named file ($ISOLINK_CONFIG) must exist; the default one may not. */
export async function loadSettings(io: CliIo): Promise<Settings> {
  const { cwd } = noSettings(io);
  const named = nonEmpty(io.env[ENV.config]);
  const path = named === undefined ? defaultConfigPath(io.env) : resolve(cwd, named);
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (error) {
    if (named === undefined && errnoOf(error) === 'ENOENT') return noSettings(io);
    throw new CliError('configUnreadable', path, errnoOf(error));
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new CliError('configInvalid', path, 'not JSON');
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, fileKey] of Object.entries(SECRET_KEYS)) {
      if (Object.hasOwn(value, key)) throw new CliError('configSecret', path, key, fileKey);
    }
  }
  const parsed = configFileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : 'the file';
    const detail = issue?.code === 'unrecognized_keys' ? `unknown key '${issue.keys.join("', '")}'` : `${where} is not valid`;
    throw new CliError('configInvalid', path, detail);
  }
  return { env: io.env, cwd, file: parsed.data, filePath: path };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** A path from the config file: `~/` is the home directory; a relative one is read from the file's folder. */
function configPath(settings: Settings, path: string): string {
  if (path.startsWith('~/')) return join(settings.env['HOME'] ?? homedir(), path.slice(2));
  return resolve(settings.filePath === undefined ? settings.cwd : dirname(settings.filePath), path);
}

/** A plain setting: the flag, else the variable, else the config file's key. */
export function setting(settings: Settings, flag: string | undefined, variable: string, fileValue: string | undefined): string | undefined {
  return nonEmpty(flag) ?? nonEmpty(settings.env[variable]) ?? fileValue;
}

/** The organisation: --org, else ISOLINK_ORG, else the config file's; a usage error without one. */
export function organisation(settings: Settings, flag: string | undefined): string {
  return required(setting(settings, flag, ENV.org, settings.file.org), 'organisation', `--org or ${ENV.org}`);
}

/** A value that must be there; a usage error naming where to set it otherwise. */
export function required(value: string | undefined, what: string, variables: string): string {
  if (value === undefined) throw new CliError('missingSetting', what, variables);
  return value;
}

/**
 * A secret: the variable itself, else the file it names (variable, then config file key).
 * Surrounding whitespace and the trailing newline of the file are ignored. A file others
 * can read gets a warning, as ssh gives one.
 */
async function secret(settings: Settings, out: Output, variable: string, fileVariable: string, fileKey: string | undefined): Promise<string | undefined> {
  const direct = nonEmpty(settings.env[variable]);
  if (direct !== undefined) return direct.trim();
  const fromEnv = nonEmpty(settings.env[fileVariable]);
  const path = fromEnv !== undefined ? resolve(settings.cwd, fromEnv) : fileKey === undefined ? undefined : configPath(settings, fileKey);
  if (path === undefined) return undefined;
  const namedBy = fromEnv !== undefined ? fileVariable : `the config file's ${variable === ENV.token ? 'tokenFile' : 'fileTokenFile'}`;
  let content: string;
  try {
    content = await readFile(path, 'utf8');
    const mode = (await stat(path)).mode;
    if (process.platform !== 'win32' && (mode & 0o077) !== 0) out.note(`isolink: warning: ${path} can be read by other users; run 'chmod 600 ${path}'.`);
  } catch (error) {
    throw new CliError('tokenFileUnreadable', namedBy, path, errnoOf(error));
  }
  const value = content.trim();
  if (value === '') throw new CliError('tokenFileEmpty', namedBy, path);
  return value;
}

/** The service and launch bases, checked. */
function serviceBases(settings: Settings): { readonly baseUrl: string; readonly launchBase: string } {
  const service = required(setting(settings, undefined, ENV.serviceUrl, settings.file.serviceUrl), 'service URL', ENV.serviceUrl);
  const base = checkServiceBase(service);
  if (!base.ok) throw new CliError('badSetting', ENV.serviceUrl, base.reason);
  const launch = setting(settings, undefined, ENV.launchUrl, settings.file.launchUrl);
  if (launch === undefined) return { baseUrl: base.base, launchBase: base.base };
  const launchBase = checkServiceBase(launch);
  if (!launchBase.ok) throw new CliError('badSetting', ENV.launchUrl, launchBase.reason);
  return { baseUrl: base.base, launchBase: launchBase.base };
}

/**
 * A client for the configured service with the admin token. `fetch` is the traced one.
 * The token is added to the output's secrets before anything could print it.
 */
export async function connect(settings: Settings, out: Output, fetchImpl: typeof fetch): Promise<{ client: IsolinkClient }> {
  const bases = serviceBases(settings);
  const token = await secret(settings, out, ENV.token, ENV.tokenFile, settings.file.tokenFile);
  if (token === undefined) throw new CliError('missingSetting', 'admin token', `${ENV.token} or ${ENV.tokenFile}`);
  out.addSecret(token);
  return { client: createClient({ ...bases, token, fetch: fetchImpl }) };
}

/** The file token (for /getfile/ and /putfile/), added to the output's secrets. */
export async function fileToken(settings: Settings, out: Output): Promise<string> {
  const token = await secret(settings, out, ENV.fileToken, ENV.fileTokenFile, settings.file.fileTokenFile);
  if (token === undefined) throw new CliError('missingSetting', 'file token', `${ENV.fileToken} or ${ENV.fileTokenFile}`);
  out.addSecret(token);
  return token;
}
