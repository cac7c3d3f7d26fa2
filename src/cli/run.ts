/**
 * The `isolink` command: finds the command in the arguments, parses its flags, runs it,
 * and turns every failure into one line on stderr and an exit status (0, 1 or 2; see
 * ./problems). Nothing here reads process globals: the process's streams and environment
 * come in through `io`, so tests run it in-process as well as from the built file.
 */
import { parseArgs } from 'node:util';

import type { Command, CommandGroup, FlagSpecs, FlagValues } from './command';
import { fangCommands } from './commands/fang';
import { isolateCommands } from './commands/isolate';
import { mail } from './commands/mail';
import { proxies } from './commands/proxies';
import { qr } from './commands/qr';
import { contexts, files, serviceCommands } from './commands/service';
import { ENV, loadSettings, noSettings } from './config';
import { Output, type CliIo } from './output';
import { CliError, EXIT, describe, exitCodeOf } from './problems';
import { tracedFetch } from './trace';
import { VERSION } from './version';

/** The commands, in the order help lists them. */
const TABLE: Readonly<Record<string, Command | CommandGroup>> = {
  ...fangCommands,
  ...isolateCommands,
  mail,
  qr,
  contexts,
  ...serviceCommands,
  proxies,
  files,
};

const GLOBAL_FLAGS = {
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
} as const satisfies FlagSpecs;

/** Flags that would carry a secret, and where the secret goes instead. */
const SECRET_FLAGS: Readonly<Record<string, string>> = {
  '--token': `${ENV.token} or ${ENV.tokenFile}`,
  '--file-token': `${ENV.fileToken} or ${ENV.fileTokenFile}`,
  '--password': `${ENV.token} or ${ENV.tokenFile}`,
};

function isGroup(entry: Command | CommandGroup): entry is CommandGroup {
  return 'commands' in entry;
}

/** Refuses a secret flag anywhere in the arguments (`--token v`, `--token=v`), before anything else is read. */
function refuseSecrets(argv: readonly string[]): void {
  for (const arg of argv) {
    const name = arg.split('=', 1)[0] ?? '';
    const instead = SECRET_FLAGS[name.toLowerCase()];
    if (instead !== undefined) throw new CliError('secretFlag', name, instead);
  }
}

/** The command's words (up to two) and where they are in argv. Global flags may come first. */
function findCommand(argv: readonly string[]): { words: string[]; at: number[] } {
  const words: string[] = [];
  const at: number[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (words.length > 0) break;
      continue;
    }
    const entry = words.length === 0 ? undefined : TABLE[words[0] ?? ''];
    if (words.length === 1 && (entry === undefined || !isGroup(entry))) break;
    words.push(arg);
    at.push(i);
  }
  return { words, at };
}

const HELP_FOOTER = [
  '',
  'Global flags: --json (machine output), --verbose (requests on stderr), --help, --version.',
  'Configuration (environment, then the config file $ISOLINK_CONFIG or $XDG_CONFIG_HOME/isolink/config.json):',
  `  ${ENV.serviceUrl}  the service base URL (https; http only on loopback)`,
  `  ${ENV.launchUrl}   where launch URLs point (default: the service URL)`,
  `  ${ENV.token} or ${ENV.tokenFile}  the admin token (never a flag)`,
  `  ${ENV.username}, ${ENV.org}, ${ENV.bucket}; ${ENV.fileToken} or ${ENV.fileTokenFile} for files`,
  'Exit status: 0 success; 1 the service refused, the network failed, some items failed, or a diff',
  'found differences; 2 usage or configuration errors.',
];

function mainHelp(): string[] {
  const lines = [
    `isolink ${VERSION}: open suspicious links in a remote isolated browser, and triage them in bulk.`,
    '',
    'Usage: isolink <command> [flags] [arguments]',
    '',
    'Commands:',
  ];
  for (const [name, entry] of Object.entries(TABLE)) {
    if (isGroup(entry)) {
      for (const [sub, command] of Object.entries(entry.commands)) lines.push(`  ${`${name} ${sub} ${command.usage}`.padEnd(30)} ${command.summary}`);
    } else lines.push(`  ${`${name} ${entry.usage}`.padEnd(30)} ${entry.summary}`);
  }
  return [...lines, ...HELP_FOOTER, '', "'isolink <command> --help' tells more about each."];
}

function commandHelp(name: string, command: Command): string[] {
  return [`Usage: isolink ${name} ${command.usage}`.trimEnd(), '', `${command.summary}.`, ...(command.help ?? []).map((line) => `  ${line}`)];
}

function groupHelp(name: string, group: CommandGroup): string[] {
  return [
    `Usage: isolink ${name} <${Object.keys(group.commands).join('|')}>`,
    '',
    `${group.summary}.`,
    ...Object.entries(group.commands).map(([sub, command]) => `  ${`${sub} ${command.usage}`.padEnd(16)} ${command.summary}`),
  ];
}

/** Parses a command's flags and arguments; usage errors say which flag, never its value. */
function parseFlags(argv: readonly string[], options: FlagSpecs, name: string): { values: FlagValues; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options: { ...options }, strict: true, allowPositionals: true });
    return { values, positionals };
  } catch (error) {
    const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const known = new Set(Object.entries(options).flatMap(([long, option]) => [`--${long}`, ...(option.short ? [`-${option.short}`] : [])]));
      const unknown = argv.map((arg) => arg.split('=', 1)[0] ?? '').find((flag) => flag.startsWith('-') && flag !== '-' && flag !== '--' && !known.has(flag));
      throw new CliError('unknownFlag', unknown ?? 'given', name);
    }
    const flag = /'(-[\w-]+)/.exec(error instanceof Error ? error.message : '')?.[1];
    throw new CliError('badFlag', flag === undefined ? 'A flag is malformed' : `${flag} is malformed (does it need a value?)`, name);
  }
}

/** Runs `isolink` with these arguments; resolves to the exit status. */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const json = argv.includes('--json');
  const out = new Output(io, { json, verbose: argv.includes('--verbose') });
  // Secrets already in the environment are kept out of every line, even a usage error's.
  for (const variable of [ENV.token, ENV.fileToken]) out.addSecret(io.env[variable]?.trim() ?? '');
  try {
    refuseSecrets(argv);
    const { words, at } = findCommand(argv);
    const rest = argv.filter((_, i) => !at.includes(i));
    const [first, second] = words;
    const entry = first === undefined ? undefined : TABLE[first];
    if (first !== undefined && entry === undefined) throw new CliError('unknownCommand', first);
    let command: Command | undefined;
    let name = first ?? '';
    if (entry !== undefined && isGroup(entry)) {
      command = second === undefined ? undefined : entry.commands[second];
      if (second !== undefined && command === undefined) throw new CliError('unknownCommand', `${first ?? ''} ${second}`);
      name = `${first ?? ''} ${second ?? ''}`.trim();
    } else command = entry;
    const options: FlagSpecs = { ...GLOBAL_FLAGS, ...(command?.flags ?? {}) };
    const { values, positionals } = parseFlags(rest, options, name || '--help');
    if (values['version'] === true && entry === undefined) {
      out.line(json ? JSON.stringify({ version: VERSION }) : VERSION);
      return EXIT.ok;
    }
    if (values['help'] === true || entry === undefined) {
      const help = entry === undefined ? mainHelp() : command !== undefined ? commandHelp(name, command) : isGroup(entry) ? groupHelp(name, entry) : [];
      for (const line of help) out.line(line);
      return EXIT.ok;
    }
    if (command === undefined) throw new CliError('missingCommand', name, isGroup(entry) ? Object.keys(entry.commands).join(', ') : '');
    if (positionals.length < command.args.min) throw new CliError('missingArgument', command.args.missing ?? 'an argument', name);
    if (positionals.length > command.args.max) throw new CliError('extraArgument', positionals[command.args.max] ?? '', name);
    const settings = command.offline ? noSettings(io) : await loadSettings(io);
    return await command.run({ io, out, settings, fetch: tracedFetch(out), flags: values, args: positionals, name });
  } catch (error) {
    out.error(describe(error));
    if (!(error instanceof CliError) && !(typeof error === 'object' && error !== null && 'code' in error)) out.trace(String(error));
    return exitCodeOf(error);
  }
}
