/**
 * What a command is: its words, its flags (node:util parseArgs options), how many
 * arguments it takes, and what it does. The table of commands is in ./commands; the
 * dispatcher in ./run.
 */
import { organisation, type Settings } from './config';
import type { CliIo, Output } from './output';
import { CliError } from './problems';

/** Flags as node:util parseArgs takes them. */
export type FlagSpecs = Readonly<Record<string, { readonly type: 'string' | 'boolean'; readonly short?: string }>>;

export type FlagValues = Readonly<Record<string, string | boolean | undefined>>;

/** What a command runs with. */
export interface CommandContext {
  readonly io: CliIo;
  readonly out: Output;
  readonly settings: Settings;
  /** fetch as the client should call it (traced with --verbose). */
  readonly fetch: typeof fetch;
  readonly flags: FlagValues;
  readonly args: readonly string[];
  /** The command's words, for messages ("contexts get"). */
  readonly name: string;
}

export interface Command {
  /** One line for `isolink --help`. */
  readonly summary: string;
  /** The arguments after the command's words, as help shows them (`<url>`, `[file…]`). */
  readonly usage: string;
  /** More lines of help: what it prints, examples. */
  readonly help?: readonly string[];
  readonly flags?: FlagSpecs;
  /** How many arguments it takes, and what the first missing one is called. */
  readonly args: { readonly min: number; readonly max: number; readonly missing?: string };
  /** True for a command that needs no configuration: the config file is not even read, so a broken one cannot stop it. */
  readonly offline?: true;
  run(context: CommandContext): Promise<number>;
}

/** A group of commands under one word (`contexts get|update|delete`). */
export interface CommandGroup {
  readonly summary: string;
  readonly commands: Readonly<Record<string, Command>>;
}

/** A string flag's value, if given. */
export function stringFlag(context: CommandContext, name: string): string | undefined {
  const value = context.flags[name];
  return typeof value === 'string' ? value : undefined;
}

/** A positive whole number flag, if given; a usage error when it is something else. */
export function countFlag(context: CommandContext, name: string): number | undefined {
  const value = stringFlag(context, name);
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1) throw new CliError('notNumber', `--${name}`);
  return Number(value);
}

/** The argument at `index` (present: the dispatcher counted them). */
export function arg(context: CommandContext, index: number): string {
  const value = context.args[index];
  if (value === undefined) throw new CliError('missingArgument', 'argument', context.name);
  return value;
}

/** The --org flag of the commands about an organisation. */
export const ORG_FLAG = { org: { type: 'string' } } as const;

/** The organisation a command is about: --org, else ISOLINK_ORG, else the config file's. */
export function orgOf(context: CommandContext): string {
  return organisation(context.settings, stringFlag(context, 'org'));
}
